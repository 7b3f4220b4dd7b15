/*
 * lz - LZ77/LZSS compression and decompression (rvsim benchmark).
 *
 * Models compressors such as SPEC's gzip/bzip2: generated, text-like data
 * (words drawn from a skewed vocabulary), a hash-chain match finder in the
 * style of deflate, greedy and lazy parsing strategies reached through a
 * function pointer, a bit-level encoder with variable-length codes for
 * lengths and distances, a decoder, and CRC-32 verification.
 *
 * Phases per round: generate text, compress (greedy, then lazy), decompress
 * each stream, verify (CRC-32 and byte comparison).
 *
 * usage: lz SIZE_KB ROUNDS MAX_CHAIN
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

/* ---------- deterministic PRNG (xorshift32) ---------- */

static uint32_t rng_state = 2463534242u;

static uint32_t rng_next(void)
{
	uint32_t x = rng_state;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return rng_state = x;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);
	if (!p) {
		printf("out of memory\n");
		exit(2);
	}
	return p;
}

/* ---------- text generation ---------- */

static const char *syllables[] = { "the", "an", "ing", "er", "com", "pro", "ta", "ble", "tion",
                                   "re", "de", "con", "ma", "ly", "ous", "ist", "ra", "in",
                                   "pre", "ment", "al", "ic", "sub", "ter" };
#define NSYL (sizeof syllables / sizeof syllables[0])
#define VOCAB 512

static char vocab[VOCAB][24];

static NOINLINE void make_vocab(void)
{
	int i;
	for (i = 0; i < VOCAB; i++) {
		int n = 1 + (int)(rng_next() % 3), k;
		vocab[i][0] = 0;
		for (k = 0; k < n; k++)
			strcat(vocab[i], syllables[rng_next() % NSYL]);
	}
}

/* Zipf-like: index = floor(VOCAB * u^3) favours small indices. */
static int pick_word(void)
{
	uint64_t u = rng_next() & 0xffff;
	return (int)((u * u * u * VOCAB) >> 48);
}

static NOINLINE size_t gen_text(unsigned char *buf, size_t size)
{
	size_t n = 0;
	int in_sentence = 0, words = 0;
	while (n + 32 < size) {
		const char *w = vocab[pick_word()];
		size_t len = strlen(w);
		if (!in_sentence) {
			memcpy(buf + n, w, len);
			if (buf[n] >= 'a' && buf[n] <= 'z')
				buf[n] = (unsigned char)(buf[n] - 'a' + 'A');
			in_sentence = 1;
		} else {
			buf[n++] = ' ';
			memcpy(buf + n, w, len);
		}
		n += len;
		words++;
		if (rng_next() % 9 == 0) {
			buf[n++] = (rng_next() % 4) ? '.' : ',';
			if (buf[n - 1] == '.') {
				in_sentence = 0;
				buf[n++] = (rng_next() % 5) ? ' ' : '\n';
			}
		}
	}
	while (n < size)
		buf[n++] = '\n';
	return n;
}

/* ---------- CRC-32 (table driven) ---------- */

static uint32_t crc_table[256];

static void crc_init(void)
{
	uint32_t i, k, c;
	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

static NOINLINE uint32_t crc32_buf(const unsigned char *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;
	while (n--)
		c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c ^ 0xFFFFFFFFu;
}

/* ---------- bit I/O ---------- */

typedef struct {
	unsigned char *buf;
	size_t pos, cap;
	uint64_t acc;
	int nbits;
} BitWriter;

static NOINLINE void put_bits(BitWriter *w, uint32_t value, int n)
{
	w->acc |= (uint64_t)value << w->nbits;
	w->nbits += n;
	while (w->nbits >= 8) {
		if (w->pos >= w->cap) {
			w->cap *= 2;
			w->buf = realloc(w->buf, w->cap);
			if (!w->buf) {
				printf("out of memory\n");
				exit(2);
			}
		}
		w->buf[w->pos++] = (unsigned char)w->acc;
		w->acc >>= 8;
		w->nbits -= 8;
	}
}

static void flush_bits(BitWriter *w)
{
	if (w->nbits > 0)
		put_bits(w, 0, 8 - w->nbits);
}

typedef struct {
	const unsigned char *buf;
	size_t pos, len;
	uint64_t acc;
	int nbits;
	int overrun;
} BitReader;

static uint32_t get_bits(BitReader *r, int n)
{
	uint32_t v;
	while (r->nbits < n) {
		uint64_t byte = 0;
		if (r->pos < r->len)
			byte = r->buf[r->pos++];
		else
			r->overrun = 1;
		r->acc |= byte << r->nbits;
		r->nbits += 8;
	}
	v = (uint32_t)(r->acc & (((uint64_t)1 << n) - 1));
	r->acc >>= n;
	r->nbits -= n;
	return v;
}

/* ---------- code for lengths and distances: Elias-gamma style buckets ---------- */

/* value >= 1: emit bucket b = floor(log2 v) in unary, then b low bits. */
static NOINLINE void put_gamma(BitWriter *w, uint32_t v)
{
	int b = 31 - __builtin_clz(v);
	put_bits(w, ((uint32_t)1 << b) - 1, b + 1); /* b ones then a zero */
	if (b)
		put_bits(w, v & (((uint32_t)1 << b) - 1), b);
}

static NOINLINE uint32_t get_gamma(BitReader *r)
{
	int b = 0;
	while (get_bits(r, 1) && b < 31)
		b++;
	if (!b)
		return 1;
	return ((uint32_t)1 << b) | get_bits(r, b);
}

/* ---------- compression ---------- */

#define WINDOW_BITS 15
#define WINDOW (1 << WINDOW_BITS)
#define MIN_MATCH 3
#define MAX_MATCH 258
#define HASH_BITS 14
#define HASH_SIZE (1 << HASH_BITS)

typedef struct {
	const unsigned char *in;
	size_t len;
	int32_t head[HASH_SIZE];
	int32_t *prev;
	int max_chain;
	long chain_steps, matches, literals;
} Matcher;

static unsigned hash3(const unsigned char *p)
{
	return ((unsigned)p[0] << 10 ^ (unsigned)p[1] << 5 ^ p[2]) & (HASH_SIZE - 1);
}

static void insert_pos(Matcher *m, size_t pos)
{
	unsigned h;
	if (pos + MIN_MATCH > m->len)
		return;
	h = hash3(m->in + pos);
	m->prev[pos] = m->head[h];
	m->head[h] = (int32_t)pos;
}

/* Longest match for the string at pos among earlier positions in the window. */
static NOINLINE int longest_match(Matcher *m, size_t pos, int *dist)
{
	int32_t cand;
	int best = 0, chain = m->max_chain;
	size_t limit = m->len - pos < MAX_MATCH ? m->len - pos : MAX_MATCH;
	if (limit < MIN_MATCH)
		return 0;
	cand = m->head[hash3(m->in + pos)];
	while (cand >= 0 && pos - (size_t)cand <= WINDOW && chain-- > 0) {
		const unsigned char *a = m->in + cand, *b = m->in + pos;
		m->chain_steps++;
		if (a[best] == b[best] && a[0] == b[0]) {
			size_t l = 0;
			while (l < limit && a[l] == b[l])
				l++;
			if ((int)l > best) {
				best = (int)l;
				*dist = (int)(pos - (size_t)cand);
				if (l == limit)
					break;
			}
		}
		cand = m->prev[cand];
	}
	return best >= MIN_MATCH ? best : 0;
}

static void emit_literal(BitWriter *w, Matcher *m, unsigned char c)
{
	put_bits(w, 0, 1);
	put_bits(w, c, 8);
	m->literals++;
}

static void emit_match(BitWriter *w, Matcher *m, int len, int dist)
{
	put_bits(w, 1, 1);
	put_gamma(w, (uint32_t)(len - MIN_MATCH + 1));
	put_gamma(w, (uint32_t)dist);
	m->matches++;
}

typedef void (*ParseFn)(Matcher *, BitWriter *);

static NOINLINE void parse_greedy(Matcher *m, BitWriter *w)
{
	size_t pos = 0;
	while (pos < m->len) {
		int dist = 0, len = longest_match(m, pos, &dist), k;
		if (len) {
			emit_match(w, m, len, dist);
			for (k = 0; k < len; k++)
				insert_pos(m, pos + (size_t)k);
			pos += (size_t)len;
		} else {
			emit_literal(w, m, m->in[pos]);
			insert_pos(m, pos);
			pos++;
		}
	}
}

/* Lazy: defer a match by one byte if the next position has a longer one. */
static NOINLINE void parse_lazy(Matcher *m, BitWriter *w)
{
	size_t pos = 0;
	int dist = 0, len = 0;
	int have = 0;
	while (pos < m->len) {
		int k;
		if (!have) {
			len = longest_match(m, pos, &dist);
		}
		have = 0;
		insert_pos(m, pos);
		if (len && pos + 1 < m->len) {
			int d2 = 0, l2 = longest_match(m, pos + 1, &d2);
			if (l2 > len) {
				emit_literal(w, m, m->in[pos]);
				pos++;
				len = l2;
				dist = d2;
				have = 1;
				continue;
			}
		}
		if (len) {
			emit_match(w, m, len, dist);
			for (k = 1; k < len; k++)
				insert_pos(m, pos + (size_t)k);
			pos += (size_t)len;
		} else {
			emit_literal(w, m, m->in[pos]);
			pos++;
		}
	}
}

static NOINLINE size_t compress(const unsigned char *in, size_t len, unsigned char **out,
                                ParseFn parse, int max_chain, Matcher *m)
{
	BitWriter w;
	m->in = in;
	m->len = len;
	m->max_chain = max_chain;
	memset(m->head, 0xff, sizeof m->head);
	w.cap = len / 2 + 64;
	w.buf = xmalloc(w.cap);
	w.pos = 0;
	w.acc = 0;
	w.nbits = 0;
	put_bits(&w, (uint32_t)len, 32);
	parse(m, &w);
	flush_bits(&w);
	*out = w.buf;
	return w.pos;
}

/* Returns the decoded length, or (size_t)-1 on corrupt input. */
static NOINLINE size_t decompress(const unsigned char *in, size_t len, unsigned char *out, size_t cap)
{
	BitReader r = { in, 0, len, 0, 0, 0 };
	size_t n = get_bits(&r, 32), pos = 0;
	if (n > cap)
		return (size_t)-1;
	while (pos < n) {
		if (get_bits(&r, 1) == 0) {
			out[pos++] = (unsigned char)get_bits(&r, 8);
		} else {
			size_t l = get_gamma(&r) + MIN_MATCH - 1;
			size_t d = get_gamma(&r);
			if (d > pos || l > n - pos)
				return (size_t)-1;
			while (l--) {
				out[pos] = out[pos - d];
				pos++;
			}
		}
		if (r.overrun)
			return (size_t)-1;
	}
	return pos;
}

/* ---------- driver ---------- */

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		ParseFn fn;
		int chain_div;
	} strategies[] = { { "greedy", parse_greedy, 4 }, { "lazy", parse_lazy, 1 } };
	size_t size;
	int rounds, max_chain, round, s, failures = 0;
	unsigned char *text, *back;
	Matcher *m;
	uint64_t checksum = 0;

	if (argc != 4) {
		printf("usage: lz SIZE_KB ROUNDS MAX_CHAIN\n");
		return 2;
	}
	size = (size_t)atol(argv[1]) * 1024;
	rounds = atoi(argv[2]);
	max_chain = atoi(argv[3]);
	if (size < 1024 || size > ((size_t)64 << 20) || rounds < 1 || max_chain < 1) {
		printf("bad arguments\n");
		return 2;
	}
	crc_init();
	make_vocab();
	text = xmalloc(size);
	back = xmalloc(size);
	m = xmalloc(sizeof *m);
	m->prev = xmalloc(size * sizeof(int32_t));

	for (round = 0; round < rounds; round++) {
		size_t n = gen_text(text, size);
		uint32_t crc = crc32_buf(text, n);
		printf("round %d: %zu bytes, crc %08x\n", round, n, crc);
		for (s = 0; s < 2; s++) {
			unsigned char *packed;
			size_t plen, ulen;
			int chain = max_chain / strategies[s].chain_div;
			m->chain_steps = m->matches = m->literals = 0;
			plen = compress(text, n, &packed, strategies[s].fn, chain < 1 ? 1 : chain, m);
			memset(back, 0, size);
			ulen = decompress(packed, plen, back, size);
			if (ulen != n || crc32_buf(back, n) != crc || memcmp(back, text, n) != 0) {
				printf("  %s: ROUND TRIP FAILED\n", strategies[s].name);
				failures++;
			}
			printf("  %-6s -> %zu bytes (%.3f bits/byte), %ld matches, %ld literals, %ld chain steps\n",
			       strategies[s].name, plen, (double)plen * 8 / (double)n, m->matches, m->literals,
			       m->chain_steps);
			checksum = checksum * 31 + plen;
			checksum = checksum * 31 + crc32_buf(packed, plen);
			free(packed);
		}
	}
	printf("failures: %d\n", failures);
	printf("checksum: %016llx\n", (unsigned long long)checksum);
	return failures ? 1 : 0;
}
