/*
 * Profile handlers for rvsim's DISE/HPS engine (hps-phase-aware-remote-
 * profiling.md §3.5, Fig. 6): hot code regions, hot methods and hot call
 * pairs. Each handler is entered through its trampoline (trampoline.S),
 * reads its arguments from the mailbox, and updates a table in handler
 * memory that rvsim reads back when the program exits.
 *
 * Built with -fcall-saved-* for every caller-saved register except ra, so
 * each function preserves whatever it touches: the trampoline then only
 * saves ra, and the application's registers all survive a call.
 */
#include "handlers.h"

volatile uint64_t dise_mailbox[MAILBOX_SLOTS];
const uint64_t hps_runtime_abi = HPS_ABI;

#define TABLE(name, bits)                                                  \
	static struct hps_entry name##_entries[1u << (bits)];              \
	struct hps_table name = {HPS_MAGIC, 1u << (bits), 0, 0, name##_entries}

TABLE(hps_code_regions, 14);
TABLE(hps_method_calls, 12);
TABLE(hps_backedges, 13);
TABLE(hps_call_pairs, 13);

/* Calls of Null_handler, for measuring the bare cost of a call. */
uint64_t hps_null_calls;

static inline uint64_t mix(uint64_t key, uint64_t key2)
{
	return ((key >> 1) ^ (key2 * 0x9E3779B97F4A7C15ull)) * 0x9E3779B97F4A7C15ull;
}

/* lookup finds or inserts (key, key2); match2 says whether key2 is part of
 * the key. It returns 0 if the table is full. */
static inline __attribute__((always_inline)) struct hps_entry *lookup(struct hps_table *t, uint64_t key, uint64_t key2, int match2)
{
	uint64_t mask = t->capacity - 1;
	uint64_t h = mix(key, match2 ? key2 : 0) >> 32;
	for (;;) {
		struct hps_entry *e = &t->entries[h & mask];
		if (e->key == key && (!match2 || e->key2 == key2))
			return e;
		if (e->key == 0) {
			if (t->used + 1 >= t->capacity) { /* keep one slot empty */
				t->dropped++;
				return 0;
			}
			t->used++;
			e->key = key;
			e->key2 = match2 ? key2 : 0;
			return e;
		}
		h++;
	}
}

/* Hot code region: mailbox = (branch pc, application instructions retired
 * before the branch, sample epoch). The region of a branch is the
 * instructions retired since the previous dynamic branch (that branch
 * included, this one not); the first branch of a sample (a new epoch) has
 * no previous branch in the sample, so its region is not attributed. */
static uint64_t last_icount, last_epoch;

void branch_handler(void)
{
	uint64_t pc = dise_mailbox[0], icount = dise_mailbox[1], epoch = dise_mailbox[2];
	struct hps_entry *e = lookup(&hps_code_regions, pc, 0, 0);
	if (e) {
		e->count++;
		if (epoch == last_epoch)
			e->value += icount - last_icount;
		else
			e->key2++;
	}
	last_icount = icount;
	last_epoch = epoch;
}

/* Hot method, invocation: mailbox = (callee entry). */
void hot_method_handler(void)
{
	struct hps_entry *e = lookup(&hps_method_calls, dise_mailbox[0], 0, 0);
	if (e)
		e->count++;
}

/* Hot method, taken backward branch: mailbox = (branch pc). */
void hot_method_backedge(void)
{
	struct hps_entry *e = lookup(&hps_backedges, dise_mailbox[0], 0, 0);
	if (e)
		e->count++;
}

/* Hot call pair: mailbox = (call-site pc, callee). */
void call_pair_handler(void)
{
	struct hps_entry *e = lookup(&hps_call_pairs, dise_mailbox[0], dise_mailbox[1], 1);
	if (e)
		e->count++;
}

void null_handler(void)
{
	hps_null_calls++;
}
