/*
 * rvsim's DISE/HPS profiling-handler runtime: the API a handler is written
 * against (docs/HANDLERS.md is its manual) and the data layout rvsim reads
 * back when the program exits (profile/runtime.go mirrors it).
 *
 *  - the mailbox: call(H, args...) in an ACF stores its arguments here;
 *  - HPS_HANDLER: declares an entry point an ACF can call;
 *  - HPS_PROFILE: declares a table and how rvsim writes it as a profile;
 *  - hps_event, hps_count, hps_add: record an event in a table.
 *
 * Handlers run on the application's core between two of its instructions,
 * on their own stack, with no C library, no FP and no system calls. They
 * are compiled so that every function saves every register it uses (see
 * the build flags in cflags), so they may call one another freely.
 */
#ifndef RVSIM_HANDLERS_H
#define RVSIM_HANDLERS_H

#include <stdint.h>

/* The runtime's ABI version; rvsim refuses a runtime built for another. */
#define HPS_ABI 2

/* ---- The mailbox ------------------------------------------------------
 * call(H, a, b, ...) stores a, b, ... as 64-bit values in dise_mailbox[0],
 * [1], ... before it enters H. A tagged call, call(H, a, b) as "NAME",
 * stores a tag word in slot 0 and the arguments in slots 1, 2, ...: the
 * tag word holds the profile's number (1, 2, ...: one per name in the ACF)
 * in bits 0-31 and the number of arguments in bits 32-39. Slots a call
 * does not store hold whatever the previous call left. */
#define MAILBOX_SLOTS 8
extern volatile uint64_t dise_mailbox[MAILBOX_SLOTS];

/* The profile number of a tagged call. */
static inline uint64_t hps_tag(void) { return dise_mailbox[0] & 0xffffffffu; }
/* The number of arguments of a tagged call. */
static inline unsigned hps_nargs(void) { return (unsigned)(dise_mailbox[0] >> 32) & 0xff; }
/* Argument k (from 0) of a tagged call; 0 if the call passed fewer. */
static inline uint64_t hps_arg(unsigned k) { return k < hps_nargs() ? dise_mailbox[1 + k] : 0; }

/* ---- Tables -------------------------------------------------------------
 * An open-addressing hash table of 40-byte entries, keyed by (tag, key,
 * key2); an entry with count 0 is empty. The header sits in .data, the
 * entries in .bss. */
#define HPS_MAGIC 0x3230424154535048ull /* "HPSTAB02" */

struct hps_entry {
	uint64_t key, key2; /* the event's key (a one-word key leaves key2 0) */
	uint64_t tag;       /* the profile number of a tagged call; 0 otherwise */
	uint64_t count;     /* events recorded (0: the entry is empty) */
	uint64_t value;     /* summed by hps_add (the profile's value field) */
};

struct hps_table {
	uint64_t magic;    /* HPS_MAGIC */
	uint64_t capacity; /* entries, a power of two */
	uint64_t used;     /* entries in use (one is always left empty) */
	uint64_t dropped;  /* events lost because the table was full */
	struct hps_entry *entries;
};

static inline uint64_t hps_hash(uint64_t tag, uint64_t key, uint64_t key2)
{
	uint64_t h = (key >> 1) ^ (key2 * 0x9E3779B97F4A7C15ull) ^ (tag << 40);
	return (h * 0x9E3779B97F4A7C15ull) >> 32;
}

/* hps_event records one event of (tag, key, key2) in t and returns its
 * entry (whose count it has already incremented), so that the caller can
 * update the entry's value; it returns 0 and counts the event as dropped
 * if the table is full. */
static inline __attribute__((always_inline)) struct hps_entry *
hps_event(struct hps_table *t, uint64_t tag, uint64_t key, uint64_t key2)
{
	uint64_t mask = t->capacity - 1;
	for (uint64_t h = hps_hash(tag, key, key2);; h++) {
		struct hps_entry *e = &t->entries[h & mask];
		if (e->count == 0) {
			if (t->used + 1 >= t->capacity) { /* keep one slot empty */
				t->dropped++;
				return 0;
			}
			t->used++;
			e->key = key;
			e->key2 = key2;
			e->tag = tag;
			e->count = 1;
			return e;
		}
		if (e->key == key && e->key2 == key2 && e->tag == tag) {
			e->count++;
			return e;
		}
	}
}

/* hps_count records one event. */
static inline void hps_count(struct hps_table *t, uint64_t tag, uint64_t key, uint64_t key2)
{
	(void)hps_event(t, tag, key, key2);
}

/* hps_add records one event and adds v to its entry's value. */
static inline void hps_add(struct hps_table *t, uint64_t tag, uint64_t key, uint64_t key2, uint64_t v)
{
	struct hps_entry *e = hps_event(t, tag, key, key2);
	if (e)
		e->value += v;
}

/* ---- Profiles -------------------------------------------------------------
 * HPS_PROFILE(var, bits, type, handlers, key, key2, value, format) defines
 * the table var with 2^bits entries and tells rvsim how to write it for
 * --profile-out: as a profile of the given type (a name such as
 * "hot-load-pc"; 0 for a tagged table, whose profiles the ACF names with
 * call(...) as "NAME"), filled by the named handlers (entry points
 * separated by spaces: the profile is written when the ACF calls one of
 * them), with JSON field names for the entries' key, key2 and value (0:
 * not written), and a format for key and key2: HPS_FMT(key, key2) of
 * HPS_CODE (an address in the program: hex, plus the function holding
 * it), HPS_HEX or HPS_DEC (a signed decimal). A tagged table's field
 * names and formats for key and key2 come from the ACF. */
#define HPS_DEC 0
#define HPS_HEX 1
#define HPS_CODE 2
#define HPS_FMT(key, key2) ((uint64_t)(key) | (uint64_t)(key2) << 8)

struct hps_profile {
	char magic[8];        /* "HPSPRF02" */
	const char *type;     /* the profile type; 0: tagged */
	const char *handlers; /* entry points that fill the table, separated by spaces */
	const char *key, *key2, *value; /* JSON field names (0: not written) */
	uint64_t format;      /* HPS_FMT(key, key2) */
	struct hps_table *table;
};

#define HPS_PROFILE(var, bits, type, handlers, key, key2, value, format)                  \
	static struct hps_entry var##_entries[1u << (bits)];                               \
	struct hps_table var = {HPS_MAGIC, 1u << (bits), 0, 0, var##_entries};              \
	static const struct hps_profile var##_profile                                      \
		__attribute__((section("hps_profiles"), used, aligned(8))) = {                 \
			"HPSPRF02", type, handlers, key, key2, value, format, &var}

/* ---- Handlers -------------------------------------------------------------
 * HPS_HANDLER(Entry, cfunc, min_args, max_args, flags) defines the entry
 * point Entry, which an ACF calls as call(Entry, ...): a six-instruction
 * trampoline that saves ra, calls the C function void cfunc(void) and
 * returns to the replacement sequence with dise.ret. It also tells rvsim
 * (and `rvsim acf`) how many arguments Entry takes and whether it is
 * tagged (flags HPS_TAGGED: every call of it must name its profile, and
 * the mailbox holds the tag word first). Entry names start with a capital
 * letter; cfunc must not be static. */
#define HPS_TAGGED 1

struct hps_handler {
	char magic[8];    /* "HPSHDL02" */
	const char *name; /* the entry point */
	uint64_t min_args, max_args;
	uint64_t flags;
};

#define HPS_HANDLER(entry, cfunc, min_args, max_args, flags)                               \
	void cfunc(void);                                                                  \
	__asm__(".pushsection .text\n"                                                     \
		".globl " #entry "\n"                                                      \
		".type " #entry ", @function\n"                                            \
		".balign 4\n" #entry ":\n"                                                 \
		"\taddi sp, sp, -16\n"                                                     \
		"\tsd ra, 8(sp)\n"                                                         \
		"\tjal ra, " #cfunc "\n"                                                   \
		"\tld ra, 8(sp)\n"                                                         \
		"\taddi sp, sp, 16\n"                                                      \
		"\t.4byte 0x0000300b /* dise.ret */\n"                                     \
		".size " #entry ", . - " #entry "\n"                                       \
		".popsection\n");                                                          \
	static const struct hps_handler entry##_handler                                    \
		__attribute__((section("hps_handlers"), used, aligned(8))) = {                 \
			"HPSHDL02", #entry, min_args, max_args, flags}

#endif
