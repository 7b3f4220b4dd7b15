/*
 * rvsim's DISE/HPS profiling-handler runtime: the data layout rvsim reads
 * back at exit (see profile/handlers.go, which mirrors it) and the mailbox
 * through which call(handler, args...) passes its arguments.
 *
 * Every table is an open-addressing hash table of 32-byte entries whose
 * header sits in .data and whose entries sit in .bss:
 *
 *   struct hps_table { magic, capacity, used, dropped, entries* }
 *   struct hps_entry { key, key2, count, value }     (key 0 = empty)
 */
#ifndef RVSIM_HANDLERS_H
#define RVSIM_HANDLERS_H

#include <stdint.h>

#define HPS_MAGIC 0x3130424154535048ull /* "HPSTAB01" */
#define HPS_ABI 1

/* The mailbox: the core stores argument k of call(handler, ...) at
 * dise_mailbox[k] before it enters the handler. */
#define MAILBOX_SLOTS 8
extern volatile uint64_t dise_mailbox[MAILBOX_SLOTS];

struct hps_entry {
	uint64_t key;   /* branch pc, callee entry, call-site pc (0: empty) */
	uint64_t key2;  /* call pairs: the callee; code regions: events not attributed a region (first of a sample) */
	uint64_t count; /* events */
	uint64_t value; /* code regions: instructions since the previous branch, summed */
};

struct hps_table {
	uint64_t magic;
	uint64_t capacity; /* entries, a power of two */
	uint64_t used;
	uint64_t dropped; /* events lost because the table was full */
	struct hps_entry *entries;
};

#endif
