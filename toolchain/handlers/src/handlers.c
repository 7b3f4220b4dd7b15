/*
 * The profile handlers rvsim ships (docs/ACF.md, "The handler runtime"):
 * the three profiles of hps-phase-aware-remote-profiling.md §3.5, Fig. 6
 * (hot code regions, hot methods and hot call pairs), the generic counter
 * Count_handler, whose profiles the ACF names, and Null_handler.
 *
 * Each handler is entered through the trampoline HPS_HANDLER makes, reads
 * its arguments from the mailbox and updates a table that rvsim reads back
 * when the program exits. User-written handlers (docs/HANDLERS.md) are
 * linked beside these by `rvsim handlers build`.
 */
#include "handlers.h"

volatile uint64_t dise_mailbox[MAILBOX_SLOTS];
const uint64_t hps_runtime_abi = HPS_ABI;

/* The built-in profile types are read by table symbol (profile/handlers.go);
 * the descriptors say which handler fills which. */
HPS_PROFILE(hps_code_regions, 14, "hot-code-region", "Branch_handler", "pc", 0, "instructions", HPS_FMT(HPS_CODE, HPS_DEC));
HPS_PROFILE(hps_method_calls, 12, "hot-method", "HotMethod_handler", "entry", 0, 0, HPS_FMT(HPS_CODE, HPS_DEC));
HPS_PROFILE(hps_backedges, 13, "hot-method", "HotMethod_backedge", "pc", 0, 0, HPS_FMT(HPS_CODE, HPS_DEC));
HPS_PROFILE(hps_call_pairs, 13, "call-pair", "CallPair_handler", "pc", "target", 0, HPS_FMT(HPS_CODE, HPS_CODE));
/* Count_handler's table: one per runtime, shared by every profile the ACF
 * names, told apart by the tag. */
HPS_PROFILE(hps_counts, 15, 0, "Count_handler", 0, 0, 0, 0);

/* Calls of Null_handler, for measuring the bare cost of a call. */
uint64_t hps_null_calls;

/* lookup finds or inserts (key, key2) in a table of the built-in profiles,
 * whose keys are never 0 and whose tag is always 0: it compares what it
 * must (key first, key2 only if match2) and so costs the paper's handlers
 * no more than they need. It returns 0 if the table is full. */
static inline __attribute__((always_inline)) struct hps_entry *lookup(struct hps_table *t, uint64_t key, uint64_t key2, int match2)
{
	uint64_t mask = t->capacity - 1;
	for (uint64_t h = hps_hash(0, key, match2 ? key2 : 0);; h++) {
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
	}
}

/* Hot code region: mailbox = (branch pc, application instructions retired
 * before the branch, sample epoch). The region of a branch is the
 * instructions retired since the previous dynamic branch (that branch
 * included, this one not); the first branch of a sample (a new epoch) has
 * no previous branch in the sample, so its region is not attributed: key2
 * counts those. */
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
HPS_HANDLER(Branch_handler, branch_handler, 3, 3, 0);

/* Hot method, invocation: mailbox = (callee entry). */
void hot_method_handler(void)
{
	struct hps_entry *e = lookup(&hps_method_calls, dise_mailbox[0], 0, 0);
	if (e)
		e->count++;
}
HPS_HANDLER(HotMethod_handler, hot_method_handler, 1, 1, 0);

/* Hot method, taken backward branch: mailbox = (branch pc). */
void hot_method_backedge(void)
{
	struct hps_entry *e = lookup(&hps_backedges, dise_mailbox[0], 0, 0);
	if (e)
		e->count++;
}
HPS_HANDLER(HotMethod_backedge, hot_method_backedge, 1, 1, 0);

/* Hot call pair: mailbox = (call-site pc, callee). */
void call_pair_handler(void)
{
	struct hps_entry *e = lookup(&hps_call_pairs, dise_mailbox[0], dise_mailbox[1], 1);
	if (e)
		e->count++;
}
HPS_HANDLER(CallPair_handler, call_pair_handler, 2, 2, 0);

/* The generic counter: call(Count_handler, key [, key2]) as "NAME" counts
 * events per one- or two-word key in the profile NAME. */
void count_handler(void)
{
	hps_count(&hps_counts, hps_tag(), hps_arg(0), hps_arg(1));
}
HPS_HANDLER(Count_handler, count_handler, 1, 2, HPS_TAGGED);

void null_handler(void)
{
	hps_null_calls++;
}
HPS_HANDLER(Null_handler, null_handler, 0, 0, 0);
