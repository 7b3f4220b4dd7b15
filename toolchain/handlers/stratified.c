/*
 * The stratified-sampling profiler's interrupt handler (stratified-sampling.md
 * §2.2, "the interrupt handler reads the buffer and folds the tuple
 * information into the profile data being collected"). rvsim's
 * profhw/stratified unit writes its full message buffer into the
 * memory-mapped window profhw_window, stores the message count in
 * dise_mailbox[0] and enters Stratified_handler through the DISE call gate;
 * the handler folds every message into profhw_table, an hps_table keyed by
 * (pc, word, tag), and returns with dise.ret. It preserves every register
 * (the trampoline saves ra; -fcall-saved-* makes the C code save the rest).
 *
 * Window layout (docs/PROFHW.md, "The real handler"):
 *   uint64 magic "PHWWIN01", capacity, count (written by rvsim), pad
 *   struct { uint64 pc, word, tag, count; } msgs[capacity]
 */
#include "handlers.h"

#define PROFHW_WINDOW_MAGIC 0x31304e4957574850ull /* "PHWWIN01" */
#define PROFHW_WINDOW_MSGS 1024
#define PROFHW_TABLE_ENTRIES 65536 /* a power of two */

struct profhw_msg {
	uint64_t pc, word, tag, count;
};

struct profhw_window {
	uint64_t magic, capacity, count, pad;
	struct profhw_msg msgs[PROFHW_WINDOW_MSGS];
};

__attribute__((aligned(4096)))
volatile struct profhw_window profhw_window = {PROFHW_WINDOW_MAGIC, PROFHW_WINDOW_MSGS, 0, 0, {{0, 0, 0, 0}}};

/* Entries: key = pc, key2 = word, value = tag, count = occurrences. */
static struct hps_entry profhw_entries[PROFHW_TABLE_ENTRIES];
struct hps_table profhw_table = {HPS_MAGIC, PROFHW_TABLE_ENTRIES, 0, 0, profhw_entries};

static inline uint64_t profhw_hash(uint64_t pc, uint64_t word, uint64_t tag)
{
	uint64_t h = (pc ^ (word * 0x9e3779b97f4a7c15ull) ^ (tag << 56)) * 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 29);
}

static void profhw_fold(uint64_t pc, uint64_t word, uint64_t tag, uint64_t count)
{
	uint64_t mask = profhw_table.capacity - 1;
	uint64_t i = profhw_hash(pc, word, tag) & mask;
	for (uint64_t probes = 0; probes <= mask; probes++, i = (i + 1) & mask) {
		struct hps_entry *e = &profhw_entries[i];
		if (e->key == pc && e->key2 == word && e->value == tag) {
			e->count += count;
			return;
		}
		if (e->key == 0) {
			e->key = pc;
			e->key2 = word;
			e->value = tag;
			e->count = count;
			profhw_table.used++;
			return;
		}
	}
	profhw_table.dropped += count;
}

void stratified_handler(void)
{
	uint64_t n = dise_mailbox[0];
	if (n > PROFHW_WINDOW_MSGS)
		n = PROFHW_WINDOW_MSGS;
	for (uint64_t k = 0; k < n; k++) {
		volatile struct profhw_msg *m = &profhw_window.msgs[k];
		profhw_fold(m->pc, m->word, m->tag, m->count);
	}
	profhw_window.count = 0;
}
