/*
 * imgcodec - a JPEG-like image codec (rvsim benchmark).
 *
 * Models media codecs such as SPEC's jpeg/h264ref. A synthetic colour image
 * is converted to YCbCr with 4:2:0 subsampling, cut into 8x8 blocks,
 * transformed by a forward DCT (a double-precision matrix DCT for luma and a
 * fixed-point one for chroma, chosen through function pointers), quantised,
 * zigzag-scanned, run-length coded and Huffman coded with per-image
 * optimal canonical tables (limited to 16-bit codes). The decoder reverses
 * every step. For each quality level the program checks that the decoded
 * coefficients equal the encoded ones exactly and that the image error is
 * within a bound, and prints sizes and integer error sums.
 *
 * The cosine table is computed from a Taylor series with basic operations,
 * so no libm result enters the output (build with -ffp-contract=off).
 *
 * usage: imgcodec WIDTH HEIGHT QUALITIES ROUNDS
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n, sz);
	if (!p) {
		printf("out of memory\n");
		exit(2);
	}
	return p;
}

/* ---------- deterministic PRNG (xorshift32) ---------- */

static uint32_t rng_state = 0x2545F491u;

static uint32_t rng_next(void)
{
	uint32_t x = rng_state;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return rng_state = x;
}

/* ---------- tables ---------- */

static const int zigzag[64] = {
	0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
	12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
	35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
	58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
};

static const int base_luma_q[64] = {
	16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
	14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
	18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
	49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
};

static const int base_chroma_q[64] = {
	17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99,
	24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
	99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
	99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
};

/* cos(x) by range reduction to [0, pi/2] and a Taylor series */
static double series_cos(double x)
{
	const double pi = 3.14159265358979323846;
	double x2, term, sum;
	int sign = 1, i;
	while (x < 0)
		x += 2 * pi;
	while (x >= 2 * pi)
		x -= 2 * pi;
	if (x > pi) {
		x = 2 * pi - x;
	}
	if (x > pi / 2) {
		x = pi - x;
		sign = -1;
	}
	x2 = x * x;
	term = 1.0;
	sum = 1.0;
	for (i = 1; i < 12; i++) {
		term = -term * x2 / (double)((2 * i - 1) * (2 * i));
		sum += term;
	}
	return sign * sum;
}

static double dct_mat[8][8];  /* dct_mat[u][x] = c(u)/2 * cos((2x+1)u pi/16) */
static int32_t dct_fix[8][8]; /* the same scaled by 2^13 */

static void init_tables(void)
{
	int u, x;
	for (u = 0; u < 8; u++)
		for (x = 0; x < 8; x++) {
			double c = u == 0 ? 0.35355339059327376220 : 0.5;
			dct_mat[u][x] = c * series_cos((2 * x + 1) * u * 3.14159265358979323846 / 16.0);
			dct_fix[u][x] = (int32_t)(dct_mat[u][x] * 8192.0 + (dct_mat[u][x] >= 0 ? 0.5 : -0.5));
		}
}

/* ---------- transforms (reached through function pointers) ---------- */

typedef void (*FdctFn)(const int16_t in[64], double out[64]);
typedef void (*IdctFn)(const int32_t in[64], int16_t out[64]);

static NOINLINE void fdct_float(const int16_t in[64], double out[64])
{
	double tmp[64];
	int u, v, x, y;
	for (y = 0; y < 8; y++)
		for (u = 0; u < 8; u++) {
			double s = 0;
			for (x = 0; x < 8; x++)
				s += dct_mat[u][x] * in[y * 8 + x];
			tmp[y * 8 + u] = s;
		}
	for (u = 0; u < 8; u++)
		for (v = 0; v < 8; v++) {
			double s = 0;
			for (y = 0; y < 8; y++)
				s += dct_mat[v][y] * tmp[y * 8 + u];
			out[v * 8 + u] = s;
		}
}

static NOINLINE void fdct_fixed(const int16_t in[64], double out[64])
{
	int32_t tmp[64];
	int u, v, x, y;
	for (y = 0; y < 8; y++)
		for (u = 0; u < 8; u++) {
			int32_t s = 0;
			for (x = 0; x < 8; x++)
				s += dct_fix[u][x] * in[y * 8 + x];
			tmp[y * 8 + u] = (s + (1 << 9)) >> 10; /* keep 3 fractional bits */
		}
	for (u = 0; u < 8; u++)
		for (v = 0; v < 8; v++) {
			int64_t s = 0;
			for (y = 0; y < 8; y++)
				s += (int64_t)dct_fix[v][y] * tmp[y * 8 + u];
			out[v * 8 + u] = (double)s / (8192.0 * 8.0);
		}
}

static NOINLINE void idct_float(const int32_t in[64], int16_t out[64])
{
	double tmp[64];
	int u, v, x, y;
	for (v = 0; v < 8; v++)
		for (x = 0; x < 8; x++) {
			double s = 0;
			for (u = 0; u < 8; u++)
				s += dct_mat[u][x] * in[v * 8 + u];
			tmp[v * 8 + x] = s;
		}
	for (y = 0; y < 8; y++)
		for (x = 0; x < 8; x++) {
			double s = 0;
			long r;
			for (v = 0; v < 8; v++)
				s += dct_mat[v][y] * tmp[v * 8 + x];
			r = (long)(s >= 0 ? s + 0.5 : s - 0.5);
			out[y * 8 + x] = (int16_t)(r < -128 ? -128 : r > 127 ? 127 : r);
		}
}

static NOINLINE void idct_fixed(const int32_t in[64], int16_t out[64])
{
	int32_t tmp[64];
	int u, v, x, y;
	for (v = 0; v < 8; v++)
		for (x = 0; x < 8; x++) {
			int32_t s = 0;
			for (u = 0; u < 8; u++)
				s += dct_fix[u][x] * in[v * 8 + u];
			tmp[v * 8 + x] = (s + (1 << 9)) >> 10;
		}
	for (y = 0; y < 8; y++)
		for (x = 0; x < 8; x++) {
			int64_t s = 0;
			int32_t r;
			for (v = 0; v < 8; v++)
				s += (int64_t)dct_fix[v][y] * tmp[v * 8 + x];
			r = (int32_t)((s + (1 << 15)) >> 16);
			out[y * 8 + x] = (int16_t)(r < -128 ? -128 : r > 127 ? 127 : r);
		}
}

/* ---------- image and planes ---------- */

typedef struct {
	int w, h;       /* padded to multiples of 8 */
	int16_t *px;    /* level-shifted samples, -128..127 */
} Plane;

static int clamp255(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }

static NOINLINE void make_image(unsigned char *rgb, int w, int h, int round)
{
	int x, y;
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			unsigned char *p = rgb + 3 * (y * w + x);
			int t = ((x + y + round * 16) * 2) & 511;
			int r = (x * 255) / w, g = (y * 255) / h, b = t < 256 ? t : 511 - t; /* triangle wave */
			int dx = x - w / 3, dy = y - h / 2, d2 = dx * dx + dy * dy;
			if (d2 < (w * w) / 25) { /* a disc */
				r = 230;
				g = 40 + (d2 & 31);
				b = 60;
			}
			if (((x / 16) + (y / 16) + round) % 7 == 0) { /* texture blocks */
				int n = (int)(rng_next() & 31) - 16;
				r = clamp255(r + n);
				g = clamp255(g - n);
			}
			if (y > h * 2 / 3 && ((x >> 2) & 1) && ((y >> 1) & 3) == 0) { /* "text" stripes */
				r = g = b = 20;
			}
			p[0] = (unsigned char)r;
			p[1] = (unsigned char)g;
			p[2] = (unsigned char)b;
		}
}

/* RGB -> YCbCr (fixed point), chroma subsampled 2x2 */
static NOINLINE void to_planes(const unsigned char *rgb, int w, int h, Plane *pl)
{
	int x, y, k;
	for (k = 0; k < 3; k++) {
		int pw = k ? (w / 2 + 7) & ~7 : (w + 7) & ~7, ph = k ? (h / 2 + 7) & ~7 : (h + 7) & ~7;
		pl[k].w = pw;
		pl[k].h = ph;
		pl[k].px = xcalloc((size_t)pw * (size_t)ph, sizeof(int16_t));
	}
	for (y = 0; y < pl[0].h; y++)
		for (x = 0; x < pl[0].w; x++) {
			int sx = x < w ? x : w - 1, sy = y < h ? y : h - 1;
			const unsigned char *p = rgb + 3 * (sy * w + sx);
			int Y = (19595 * p[0] + 38470 * p[1] + 7471 * p[2] + 32768) >> 16;
			pl[0].px[y * pl[0].w + x] = (int16_t)(Y - 128);
		}
	for (y = 0; y < pl[1].h; y++)
		for (x = 0; x < pl[1].w; x++) {
			int cb = 0, cr = 0, dx, dy;
			for (dy = 0; dy < 2; dy++)
				for (dx = 0; dx < 2; dx++) {
					int sx = 2 * x + dx, sy = 2 * y + dy;
					const unsigned char *p;
					if (sx >= w) sx = w - 1;
					if (sy >= h) sy = h - 1;
					p = rgb + 3 * (sy * w + sx);
					cb += (-11059 * p[0] - 21709 * p[1] + 32768 * p[2]) >> 8;
					cr += (32768 * p[0] - 27439 * p[1] - 5329 * p[2]) >> 8;
				}
			pl[1].px[y * pl[1].w + x] = (int16_t)clamp255(((cb / 4 + 128) >> 8) + 128) - 128;
			pl[2].px[y * pl[2].w + x] = (int16_t)clamp255(((cr / 4 + 128) >> 8) + 128) - 128;
		}
}

static NOINLINE void from_planes(const Plane *pl, int w, int h, unsigned char *rgb)
{
	int x, y;
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			int Y = pl[0].px[y * pl[0].w + x] + 128;
			int cb = pl[1].px[(y / 2) * pl[1].w + x / 2];
			int cr = pl[2].px[(y / 2) * pl[2].w + x / 2];
			unsigned char *p = rgb + 3 * (y * w + x);
			p[0] = (unsigned char)clamp255(Y + ((91881 * cr + 32768) >> 16));
			p[1] = (unsigned char)clamp255(Y - ((22554 * cb + 46802 * cr + 32768) >> 16));
			p[2] = (unsigned char)clamp255(Y + ((116130 * cb + 32768) >> 16));
		}
}

/* ---------- bit I/O ---------- */

typedef struct {
	unsigned char *buf;
	size_t pos, cap;
	uint32_t acc;
	int n;
} BitOut;

static NOINLINE void bits_put(BitOut *b, uint32_t code, int len)
{
	while (len > 0) {
		int take = len > 8 ? 8 : len;
		len -= take;
		b->acc = (b->acc << take) | ((code >> len) & ((1u << take) - 1));
		b->n += take;
		while (b->n >= 8) {
			if (b->pos == b->cap) {
				b->cap = b->cap * 2 + 1024;
				b->buf = realloc(b->buf, b->cap);
				if (!b->buf) {
					printf("out of memory\n");
					exit(2);
				}
			}
			b->buf[b->pos++] = (unsigned char)(b->acc >> (b->n - 8));
			b->n -= 8;
		}
	}
}

typedef struct {
	const unsigned char *buf;
	size_t pos, len;
	uint32_t acc;
	int n;
} BitIn;

static int bit_get(BitIn *b)
{
	if (b->n == 0) {
		b->acc = b->pos < b->len ? b->buf[b->pos] : 0;
		b->pos++;
		b->n = 8;
	}
	b->n--;
	return (int)((b->acc >> b->n) & 1);
}

static uint32_t bits_get(BitIn *b, int len)
{
	uint32_t v = 0;
	while (len--)
		v = (v << 1) | (uint32_t)bit_get(b);
	return v;
}

/* ---------- Huffman tables ---------- */

typedef struct {
	int len[256];
	uint32_t code[256];
	/* decoding, canonical: per length the first code, count and offset */
	int32_t first[17], count[17], offset[17];
	uint8_t symbols[256];
} Huff;

/* Optimal code lengths from frequencies, then limited to 16 bits. */
static NOINLINE void huff_build(Huff *h, const long *freq)
{
	long f[257];
	int parent[514], i, n = 0, nodes, s, bl_count[64];
	int sym_of[257];
	memset(h, 0, sizeof *h);
	for (s = 0; s < 256; s++)
		if (freq[s]) {
			f[n] = freq[s];
			sym_of[n] = s;
			n++;
		}
	if (n == 0)
		return;
	if (n == 1) {
		h->len[sym_of[0]] = 1;
	} else {
		/* simple O(n^2) Huffman: repeatedly join the two smallest roots */
		long w[514];
		int alive[514];
		for (i = 0; i < n; i++) {
			w[i] = f[i];
			alive[i] = 1;
			parent[i] = -1;
		}
		nodes = n;
		for (;;) {
			int a = -1, b = -1;
			for (i = 0; i < nodes; i++) {
				if (!alive[i])
					continue;
				if (a < 0 || w[i] < w[a] || (w[i] == w[a] && i < a)) {
					b = a;
					a = i;
				} else if (b < 0 || w[i] < w[b]) {
					b = i;
				}
			}
			if (b < 0)
				break;
			w[nodes] = w[a] + w[b];
			alive[nodes] = 1;
			parent[nodes] = -1;
			alive[a] = alive[b] = 0;
			parent[a] = parent[b] = nodes;
			nodes++;
		}
		for (i = 0; i < n; i++) {
			int d = 0, k = i;
			while (parent[k] >= 0) {
				k = parent[k];
				d++;
			}
			h->len[sym_of[i]] = d;
		}
	}
	/* limit lengths to 16 (JPEG Annex K.3 style adjustment on the histogram) */
	memset(bl_count, 0, sizeof bl_count);
	for (s = 0; s < 256; s++)
		if (h->len[s])
			bl_count[h->len[s] < 63 ? h->len[s] : 63]++;
	for (i = 63; i > 16; i--) {
		while (bl_count[i] > 0) {
			int j = i - 2;
			while (j > 0 && bl_count[j] == 0)
				j--;
			bl_count[i] -= 2;
			bl_count[i - 1]++;
			bl_count[j + 1] += 2;
			bl_count[j]--;
		}
	}
	/* reassign lengths: longest codes to the rarest symbols */
	{
		int order[256], m = 0, a, b, len = 16;
		for (s = 0; s < 256; s++)
			if (h->len[s])
				order[m++] = s;
		for (a = 1; a < m; a++) { /* stable sort by (length, symbol) */
			int t = order[a];
			for (b = a; b > 0 && (h->len[order[b - 1]] > h->len[t] ||
			                      (h->len[order[b - 1]] == h->len[t] && order[b - 1] > t)); b--)
				order[b] = order[b - 1];
			order[b] = t;
		}
		for (a = m - 1; a >= 0; a--) {
			while (len > 0 && bl_count[len] == 0)
				len--;
			h->len[order[a]] = len;
			bl_count[len]--;
		}
	}
	/* canonical codes in (length, symbol) order */
	{
		uint32_t code = 0;
		int len, k = 0;
		for (len = 1; len <= 16; len++) {
			h->first[len] = (int32_t)code;
			h->offset[len] = k;
			for (s = 0; s < 256; s++)
				if (h->len[s] == len) {
					h->code[s] = code++;
					h->symbols[k++] = (uint8_t)s;
					h->count[len]++;
				}
			code <<= 1;
		}
	}
}

static NOINLINE int huff_decode(const Huff *h, BitIn *in)
{
	int32_t code = 0;
	int len;
	for (len = 1; len <= 16; len++) {
		code = (code << 1) | bit_get(in);
		if (code >= h->first[len] && code - h->first[len] < h->count[len])
			return h->symbols[h->offset[len] + code - h->first[len]];
	}
	return -1;
}

/* ---------- block coding ---------- */

static int magnitude_bits(int v)
{
	int n = 0;
	if (v < 0)
		v = -v;
	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

typedef struct {
	int nblocks;
	int32_t *coef; /* quantised, in zigzag order, 64 per block */
} Coefs;

static NOINLINE void quantise_plane(const Plane *p, FdctFn fdct, const int *q, Coefs *c)
{
	int bx, by, k, b = 0;
	c->nblocks = (p->w / 8) * (p->h / 8);
	c->coef = xcalloc((size_t)c->nblocks * 64, sizeof(int32_t));
	for (by = 0; by < p->h; by += 8)
		for (bx = 0; bx < p->w; bx += 8, b++) {
			int16_t blk[64];
			double out[64];
			int x, y;
			for (y = 0; y < 8; y++)
				for (x = 0; x < 8; x++)
					blk[y * 8 + x] = p->px[(by + y) * p->w + bx + x];
			fdct(blk, out);
			for (k = 0; k < 64; k++) {
				double vq = out[zigzag[k]] / q[zigzag[k]];
				c->coef[b * 64 + k] = (int32_t)(vq >= 0 ? vq + 0.5 : vq - 0.5);
			}
		}
}

/* symbol stream: DC symbol = size of difference; AC symbol = run<<4 | size,
 * 0x00 = end of block, 0xF0 = sixteen zeros */
static NOINLINE void count_symbols(const Coefs *c, long *dcf, long *acf)
{
	int b, k, prev = 0;
	for (b = 0; b < c->nblocks; b++) {
		const int32_t *z = c->coef + b * 64;
		int run = 0;
		dcf[magnitude_bits(z[0] - prev)]++;
		prev = z[0];
		for (k = 1; k < 64; k++) {
			if (z[k] == 0) {
				run++;
				continue;
			}
			while (run > 15) {
				acf[0xF0]++;
				run -= 16;
			}
			acf[(run << 4) | magnitude_bits(z[k])]++;
			run = 0;
		}
		if (run)
			acf[0x00]++;
	}
}

static void put_value(BitOut *o, int v, int size)
{
	if (size)
		bits_put(o, (uint32_t)(v >= 0 ? v : v + (1 << size) - 1), size);
}

static int get_value(BitIn *in, int size)
{
	int v;
	if (!size)
		return 0;
	v = (int)bits_get(in, size);
	return v >= (1 << (size - 1)) ? v : v - (1 << size) + 1;
}

static NOINLINE void encode_plane(const Coefs *c, const Huff *dc, const Huff *ac, BitOut *o)
{
	int b, k, prev = 0;
	for (b = 0; b < c->nblocks; b++) {
		const int32_t *z = c->coef + b * 64;
		int run = 0, d = z[0] - prev, s = magnitude_bits(d);
		bits_put(o, dc->code[s], dc->len[s]);
		put_value(o, d, s);
		prev = z[0];
		for (k = 1; k < 64; k++) {
			int sym;
			if (z[k] == 0) {
				run++;
				continue;
			}
			while (run > 15) {
				bits_put(o, ac->code[0xF0], ac->len[0xF0]);
				run -= 16;
			}
			s = magnitude_bits(z[k]);
			sym = (run << 4) | s;
			bits_put(o, ac->code[sym], ac->len[sym]);
			put_value(o, z[k], s);
			run = 0;
		}
		if (run)
			bits_put(o, ac->code[0x00], ac->len[0x00]);
	}
}

static NOINLINE int decode_plane(Coefs *c, const Huff *dc, const Huff *ac, BitIn *in)
{
	int b, k, prev = 0;
	for (b = 0; b < c->nblocks; b++) {
		int32_t *z = c->coef + b * 64;
		int s = huff_decode(dc, in);
		if (s < 0)
			return -1;
		memset(z, 0, 64 * sizeof(int32_t));
		z[0] = prev + get_value(in, s);
		prev = z[0];
		for (k = 1; k < 64;) {
			int sym = huff_decode(ac, in);
			if (sym < 0)
				return -1;
			if (sym == 0x00)
				break;
			if (sym == 0xF0) {
				k += 16;
				continue;
			}
			k += sym >> 4;
			if (k >= 64)
				return -1;
			z[k++] = get_value(in, sym & 15);
		}
	}
	return 0;
}

static NOINLINE void reconstruct_plane(const Coefs *c, IdctFn idct, const int *q, Plane *p)
{
	int bx, by, k, b = 0;
	for (by = 0; by < p->h; by += 8)
		for (bx = 0; bx < p->w; bx += 8, b++) {
			int32_t blk[64];
			int16_t out[64];
			int x, y;
			for (k = 0; k < 64; k++)
				blk[zigzag[k]] = c->coef[b * 64 + k] * q[zigzag[k]];
			idct(blk, out);
			for (y = 0; y < 8; y++)
				for (x = 0; x < 8; x++)
					p->px[(by + y) * p->w + bx + x] = out[y * 8 + x];
		}
}

static void scale_table(const int *base, int quality, int *q)
{
	int k, s = quality < 50 ? 5000 / quality : 200 - 2 * quality;
	for (k = 0; k < 64; k++) {
		int v = (base[k] * s + 50) / 100;
		q[k] = v < 1 ? 1 : v > 255 ? 255 : v;
	}
}

int main(int argc, char **argv)
{
	static const int qualities[] = { 75, 50, 90, 30, 60, 95, 20, 85 };
	static const FdctFn fdcts[3] = { fdct_float, fdct_fixed, fdct_fixed };
	static const IdctFn idcts[3] = { idct_float, idct_fixed, idct_fixed };
	int w, h, nq, rounds, r, qi, k, i, failures = 0;
	unsigned char *rgb, *out;
	uint64_t checksum = 0;

	if (argc != 5) {
		printf("usage: imgcodec WIDTH HEIGHT QUALITIES ROUNDS\n");
		return 2;
	}
	w = atoi(argv[1]);
	h = atoi(argv[2]);
	nq = atoi(argv[3]);
	rounds = atoi(argv[4]);
	if (w < 16 || h < 16 || w > 4096 || h > 4096 || nq < 1 || nq > 8 || rounds < 1) {
		printf("bad arguments\n");
		return 2;
	}
	init_tables();
	rgb = xcalloc((size_t)w * (size_t)h, 3);
	out = xcalloc((size_t)w * (size_t)h, 3);
	for (r = 0; r < rounds; r++) {
		Plane pl[3];
		uint64_t base_sse = 0;
		make_image(rgb, w, h, r);
		to_planes(rgb, w, h, pl);
		/* error of colour conversion and subsampling alone */
		from_planes(pl, w, h, out);
		for (i = 0; i < 3 * w * h; i++) {
			long e = (long)out[i] - rgb[i];
			base_sse += (uint64_t)(e * e);
		}
		printf("round %d: colour conversion and 4:2:0 alone: sse %llu\n", r, (unsigned long long)base_sse);
		for (qi = 0; qi < nq; qi++) {
			int quality = qualities[qi], q[3][64];
			Coefs c[3], d[3];
			long dcf[2][256], acf[2][256];
			Huff hdc[2], hac[2];
			BitOut bo = { 0, 0, 0, 0, 0 };
			BitIn bi;
			uint64_t sse = 0;
			long maxerr = 0;
			scale_table(base_luma_q, quality, q[0]);
			scale_table(base_chroma_q, quality, q[1]);
			scale_table(base_chroma_q, quality, q[2]);
			memset(dcf, 0, sizeof dcf);
			memset(acf, 0, sizeof acf);
			for (k = 0; k < 3; k++) {
				quantise_plane(&pl[k], fdcts[k], q[k], &c[k]);
				count_symbols(&c[k], dcf[k > 0], acf[k > 0]);
			}
			for (k = 0; k < 2; k++) {
				huff_build(&hdc[k], dcf[k]);
				huff_build(&hac[k], acf[k]);
			}
			for (k = 0; k < 3; k++)
				encode_plane(&c[k], &hdc[k > 0], &hac[k > 0], &bo);
			bits_put(&bo, 0x7F, 7); /* pad */
			/* decode */
			bi.buf = bo.buf;
			bi.len = bo.pos;
			bi.pos = 0;
			bi.acc = 0;
			bi.n = 0;
			for (k = 0; k < 3; k++) {
				d[k].nblocks = c[k].nblocks;
				d[k].coef = xcalloc((size_t)d[k].nblocks * 64, sizeof(int32_t));
				if (decode_plane(&d[k], &hdc[k > 0], &hac[k > 0], &bi) != 0 ||
				    memcmp(d[k].coef, c[k].coef, (size_t)c[k].nblocks * 64 * sizeof(int32_t)) != 0) {
					printf("round %d q%d: plane %d decoded wrongly\n", r, quality, k);
					failures++;
				}
			}
			{
				Plane rec[3];
				for (k = 0; k < 3; k++) {
					rec[k] = pl[k];
					rec[k].px = xcalloc((size_t)pl[k].w * (size_t)pl[k].h, sizeof(int16_t));
					reconstruct_plane(&d[k], idcts[k], q[k], &rec[k]);
				}
				from_planes(rec, w, h, out);
				for (k = 0; k < 3; k++)
					free(rec[k].px);
			}
			for (i = 0; i < 3 * w * h; i++) {
				long e = (long)out[i] - rgb[i];
				sse += (uint64_t)(e * e);
				if (e < 0)
					e = -e;
				if (e > maxerr)
					maxerr = e;
			}
			/* bound: the codec adds a mean squared error below 4 * (100 - quality) + 20 */
			if (sse > base_sse + (uint64_t)(3 * w * h) * (uint64_t)(4 * (100 - quality) + 20)) {
				printf("round %d q%d: error too large\n", r, quality);
				failures++;
			}
			printf("round %d quality %2d: %zu bytes, sse %llu, max error %ld\n", r, quality, bo.pos,
			       (unsigned long long)sse, maxerr);
			checksum = checksum * 1000003 + bo.pos;
			checksum = checksum * 1000003 + sse;
			for (k = 0; k < 3; k++) {
				free(c[k].coef);
				free(d[k].coef);
			}
			free(bo.buf);
		}
		for (k = 0; k < 3; k++)
			free(pl[k].px);
	}
	printf("failures: %d\n", failures);
	printf("checksum: %016llx\n", (unsigned long long)checksum);
	return failures ? 1 : 0;
}
