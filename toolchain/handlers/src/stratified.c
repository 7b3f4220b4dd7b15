/*
 * The stratified-sampling profiler's interrupt handler (stratified-sampling.md
 * §2.2, "the interrupt handler reads the buffer and folds the tuple
 * information into the profile data being collected"). rvsim's
 * profhw/stratified unit writes its full message buffer into the
 * memory-mapped window profhw_window, stores the message count in
 * dise_mailbox[0] and enters Stratified_handler through the DISE call gate;
 * the handler folds every message into profhw_table, an hps_table keyed by
 * (tag, pc, word) whose counts are occurrences, and returns with dise.ret.
 * It preserves every register (the HPS_HANDLER trampoline saves ra; the
 * build flags make the C code save the rest).
 *
 * Window layout (docs/PROFHW.md, "The real handler"):
 *   uint64 magic "PHWWIN01", capacity, count, pad
 *   struct { uint64 pc, word, tag, count; } msgs[capacity]
 */
#include "handlers.h"

#define PROFHW_WINDOW_MAGIC 0x31304e4957574850ull /* "PHWWIN01" */
#define PROFHW_WINDOW_MSGS 1024

struct profhw_msg {
	uint64_t pc, word, tag, count;
};

struct profhw_window {
	uint64_t magic, capacity, count, pad;
	struct profhw_msg msgs[PROFHW_WINDOW_MSGS];
};

__attribute__((aligned(4096)))
volatile struct profhw_window profhw_window = {PROFHW_WINDOW_MAGIC, PROFHW_WINDOW_MSGS, 0, 0, {{0, 0, 0, 0}}};

/* Not an HPS_PROFILE: rvsim's profhw unit reads it back itself. */
static struct hps_entry profhw_entries[1u << 16];
struct hps_table profhw_table = {HPS_MAGIC, 1u << 16, 0, 0, profhw_entries};

void stratified_handler(void);
HPS_HANDLER(Stratified_handler, stratified_handler, 1, 1, 0);

void stratified_handler(void)
{
	uint64_t n = dise_mailbox[0];
	if (n > PROFHW_WINDOW_MSGS)
		n = PROFHW_WINDOW_MSGS;
	for (uint64_t k = 0; k < n; k++) {
		volatile struct profhw_msg *m = &profhw_window.msgs[k];
		uint64_t c = m->count;
		struct hps_entry *e = hps_event(&profhw_table, m->tag, m->pc, m->word);
		if (e)
			e->count += c - 1; /* hps_event counted one */
		else
			profhw_table.dropped += c - 1;
	}
	profhw_window.count = 0;
}
