/*
 * gen.c: golden test vectors for package softfloat, computed by the host
 * x86-64 FPU (SSE/AVX scalar instructions) as an independent oracle.
 *
 * Build and run with gen.sh (host gcc, NOT the RISC-V cross compiler). The
 * output is one text line per test:
 *
 *   op operand... result flags                      (mode-independent ops)
 *   op operand... rRNE fRNE rRTZ fRTZ rRDN fRDN rRUP fRUP
 *
 * all in hex; flags are in the RISC-V fflags layout (NV DZ OF UF NX =
 * 16 8 4 2 1). x86 and RISC-V agree on IEEE 754 results and flags,
 * including tininess detected after rounding, with these exceptions, which
 * are mapped here:
 *   - NaN results: x86 propagates payloads and uses a negative default NaN;
 *     RISC-V always returns the canonical NaN. Every NaN result is replaced
 *     by the canonical NaN.
 *   - fma(inf, 0, qNaN): x86 raises no invalid; RISC-V requires NV.
 *   - float-to-integer conversion of NaN or out-of-range values: x86 returns
 *     the "integer indefinite" value; RISC-V saturates (NaN and +overflow to
 *     the maximum, -overflow to the minimum) and raises only NV. The in-range
 *     rounding and its inexact flag come from cvtsd2si (llrint) in the
 *     selected rounding mode; the range check is applied to that rounded
 *     value, as the RISC-V table "domains of float-to-integer conversions"
 *     specifies.
 *   - fmin/fmax use glibc's fminimum_num/fmaximum_num (IEEE 754-2019
 *     minimumNumber/maximumNumber), which is what RISC-V specifies.
 * RMM has no x86 mode and is not covered here.
 */
#define _GNU_SOURCE
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* gcc ignores "#pragma STDC FENV_ACCESS ON"; volatile operands and -frounding-math keep
 * every operation between feclearexcept and fetestexcept. */

typedef uint64_t u64;
typedef uint32_t u32;

static const int modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

static double D(u64 u) { double d; memcpy(&d, &u, 8); return d; }
static u64 DU(double d) { u64 u; memcpy(&u, &d, 8); return u; }
static float F(u32 u) { float f; memcpy(&f, &u, 4); return f; }
static u32 FU(float f) { u32 u; memcpy(&u, &f, 4); return u; }

static unsigned rvflags(int x) {
	return (x & FE_INEXACT ? 1 : 0) | (x & FE_UNDERFLOW ? 2 : 0) | (x & FE_OVERFLOW ? 4 : 0) |
	       (x & FE_DIVBYZERO ? 8 : 0) | (x & FE_INVALID ? 16 : 0);
}

#define EXC (FE_INEXACT | FE_UNDERFLOW | FE_OVERFLOW | FE_DIVBYZERO | FE_INVALID)

typedef struct {
	u64 r;
	unsigned fl;
} res;

static res r64(double d, int ex) {
	res o = {isnan(d) ? 0x7ff8000000000000ull : DU(d), rvflags(ex)};
	return o;
}
static res r32(float f, int ex) {
	res o = {isnan(f) ? 0x7fc00000u : FU(f), rvflags(ex)};
	return o;
}

/* ---- operations: each runs in the current rounding mode ---------------- */

typedef res (*opfn)(const u64 *in);

#define BIN64(name, expr)                                   \
	static res name(const u64 *in) {                        \
		volatile double a = D(in[0]), b = D(in[1]);         \
		feclearexcept(FE_ALL_EXCEPT);                       \
		volatile double r = (expr);                         \
		return r64(r, fetestexcept(EXC));                   \
	}
#define BIN32(name, expr)                                   \
	static res name(const u64 *in) {                        \
		volatile float a = F(in[0]), b = F(in[1]);          \
		feclearexcept(FE_ALL_EXCEPT);                       \
		volatile float r = (expr);                          \
		return r32(r, fetestexcept(EXC));                   \
	}
BIN64(add64, a + b)
BIN64(sub64, a - b)
BIN64(mul64, a * b)
BIN64(div64, a / b)
BIN32(add32, a + b)
BIN32(sub32, a - b)
BIN32(mul32, a * b)
BIN32(div32, a / b)

static res sqrt64(const u64 *in) {
	volatile double a = D(in[0]);
	feclearexcept(FE_ALL_EXCEPT);
	volatile double r = sqrt(a);
	return r64(r, fetestexcept(EXC));
}
static res sqrt32(const u64 *in) {
	volatile float a = F(in[0]);
	feclearexcept(FE_ALL_EXCEPT);
	volatile float r = sqrtf(a);
	return r32(r, fetestexcept(EXC));
}

/* RISC-V: inf*0 raises NV even when the addend is a quiet NaN. */
static int infzero(double a, double b) { return (isinf(a) && b == 0) || (a == 0 && isinf(b)); }

#define FMA64(name, sa, sc)                                             \
	static res name(const u64 *in) {                                    \
		volatile double a = D(in[0]), b = D(in[1]), c = D(in[2]);       \
		feclearexcept(FE_ALL_EXCEPT);                                   \
		volatile double r = fma(sa a, b, sc c);                         \
		res o = r64(r, fetestexcept(EXC));                              \
		if (infzero(a, b)) o.fl |= 16;                                  \
		return o;                                                       \
	}
#define FMA32(name, sa, sc)                                             \
	static res name(const u64 *in) {                                    \
		volatile float a = F(in[0]), b = F(in[1]), c = F(in[2]);        \
		feclearexcept(FE_ALL_EXCEPT);                                   \
		volatile float r = fmaf(sa a, b, sc c);                         \
		res o = r32(r, fetestexcept(EXC));                              \
		if (infzero(a, b)) o.fl |= 16;                                  \
		return o;                                                       \
	}
FMA64(fmadd64, +, +)
FMA64(fmsub64, +, -)
FMA64(fnmsub64, -, +)
FMA64(fnmadd64, -, -)
FMA32(fmadd32, +, +)
FMA32(fmsub32, +, -)
FMA32(fnmsub32, -, +)
FMA32(fnmadd32, -, -)

static res f32tof64(const u64 *in) {
	volatile float a = F(in[0]);
	feclearexcept(FE_ALL_EXCEPT);
	volatile double r = a;
	return r64(r, fetestexcept(EXC));
}
static res f64tof32(const u64 *in) {
	volatile double a = D(in[0]);
	feclearexcept(FE_ALL_EXCEPT);
	volatile float r = (float)a;
	return r32(r, fetestexcept(EXC));
}

/* Float to integer. llrint rounds in the current mode (cvtsd2si) and
 * raises inexact; invalid (NaN, beyond int64) is mapped to saturation. */
static res toint(double x, int64_t lo, u64 hi, int is_unsigned, int width) {
	res o;
	volatile double v = x;
	if (isnan(x)) {
		o.r = hi;
		o.fl = 16;
		return o;
	}
	if (is_unsigned && width == 64 && x >= 0x1p63) {
		/* beyond int64: values >= 2^63 are integers, so x - 2^63 is exact */
		if (x >= 0x1p64) {
			o.r = hi;
			o.fl = 16;
			return o;
		}
		feclearexcept(FE_ALL_EXCEPT);
		volatile long long i = llrint(v - 0x1p63);
		o.r = (u64)i + (1ull << 63);
		o.fl = rvflags(fetestexcept(EXC));
		return o;
	}
	feclearexcept(FE_ALL_EXCEPT);
	volatile long long i = llrint(v);
	int ex = fetestexcept(EXC);
	if (ex & FE_INVALID) { /* out of int64 range */
		o.r = x > 0 ? hi : (u64)lo;
		o.fl = 16;
		return o;
	}
	if (is_unsigned) {
		if (i < 0) {
			o.r = 0;
			o.fl = 16;
			return o;
		}
		if (width == 32 && (u64)i > hi) {
			o.r = hi;
			o.fl = 16;
			return o;
		}
	} else if (width == 32 && (i < lo || i > (long long)hi)) {
		o.r = (u64)(u32)(i < lo ? lo : (int64_t)hi);
		o.fl = 16;
		return o;
	}
	o.r = width == 32 ? (u64)(u32)i : (u64)i;
	o.fl = rvflags(ex);
	return o;
}
static res f64toi32(const u64 *in) {
	res o = toint(D(in[0]), INT32_MIN, INT32_MAX, 0, 32);
	o.r &= 0xffffffffu;
	return o;
}
static res f64tou32(const u64 *in) { return toint(D(in[0]), 0, UINT32_MAX, 1, 32); }
static res f64toi64(const u64 *in) { return toint(D(in[0]), INT64_MIN, INT64_MAX, 0, 64); }
static res f64tou64(const u64 *in) { return toint(D(in[0]), 0, UINT64_MAX, 1, 64); }
static res f32toi32(const u64 *in) {
	res o = toint((double)F(in[0]), INT32_MIN, INT32_MAX, 0, 32);
	o.r &= 0xffffffffu;
	return o;
}
static res f32tou32(const u64 *in) { return toint((double)F(in[0]), 0, UINT32_MAX, 1, 32); }
static res f32toi64(const u64 *in) { return toint((double)F(in[0]), INT64_MIN, INT64_MAX, 0, 64); }
static res f32tou64(const u64 *in) { return toint((double)F(in[0]), 0, UINT64_MAX, 1, 64); }

#define ITOF(name, ity, fty, rf)                                \
	static res name(const u64 *in) {                            \
		volatile ity v = (ity)in[0];                            \
		feclearexcept(FE_ALL_EXCEPT);                           \
		volatile fty r = (fty)v;                                \
		return rf(r, fetestexcept(EXC));                        \
	}
ITOF(i32tof64, int32_t, double, r64)
ITOF(u32tof64, uint32_t, double, r64)
ITOF(i64tof64, int64_t, double, r64)
ITOF(u64tof64, uint64_t, double, r64)
ITOF(i32tof32, int32_t, float, r32)
ITOF(u32tof32, uint32_t, float, r32)
ITOF(i64tof32, int64_t, float, r32)
ITOF(u64tof32, uint64_t, float, r32)

/* Comparisons: == is the quiet ucomisd, < and <= the signalling comisd. */
#define CMP(name, ty, conv, expr)                               \
	static res name(const u64 *in) {                            \
		volatile ty a = conv(in[0]), b = conv(in[1]);           \
		feclearexcept(FE_ALL_EXCEPT);                           \
		volatile int r = (expr);                                \
		res o = {(u64)r, rvflags(fetestexcept(EXC))};           \
		return o;                                               \
	}
CMP(eq64, double, D, a == b)
CMP(lt64, double, D, a < b)
CMP(le64, double, D, a <= b)
CMP(eq32, float, F, a == b)
CMP(lt32, float, F, a < b)
CMP(le32, float, F, a <= b)

BIN64(min64, fminimum_num(a, b))
BIN64(max64, fmaximum_num(a, b))
BIN32(min32, fminimum_numf(a, b))
BIN32(max32, fmaximum_numf(a, b))

static u64 classmask(int cls, int neg, int sig) {
	switch (cls) {
	case FP_INFINITE: return neg ? 1 << 0 : 1 << 7;
	case FP_NORMAL: return neg ? 1 << 1 : 1 << 6;
	case FP_SUBNORMAL: return neg ? 1 << 2 : 1 << 5;
	case FP_ZERO: return neg ? 1 << 3 : 1 << 4;
	default: return sig ? 1 << 8 : 1 << 9;
	}
}
static res class64(const u64 *in) {
	double a = D(in[0]);
	res o = {classmask(fpclassify(a), signbit(a) != 0, issignaling(a)), 0};
	return o;
}
static res class32(const u64 *in) {
	float a = F(in[0]);
	res o = {classmask(fpclassify(a), signbit(a) != 0, issignaling(a)), 0};
	return o;
}

/* ---- operand generation -------------------------------------------------- */

static u64 state = 0x5eed0f5f7f10a7ull;
static u64 rnd(void) { /* splitmix64 */
	u64 z = (state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
static int rn(int n) { return (int)(rnd() % (u64)n); }

typedef struct {
	int fbits, ebits, bias;
} fmt;
static const fmt F64 = {52, 11, 1023}, F32 = {23, 8, 127};

static u64 emax(fmt f) { return (1ull << f.ebits) - 1; }
static u64 fmask(fmt f) { return (1ull << f.fbits) - 1; }
static u64 pack(fmt f, u64 s, u64 e, u64 m) { return s << (f.fbits + f.ebits) | e << f.fbits | (m & fmask(f)); }
static u64 expof(fmt f, u64 v) { return (v >> f.fbits) & emax(f); }
static u64 signof(fmt f, u64 v) { return (v >> (f.fbits + f.ebits)) & 1; }

static u64 special(fmt f) {
	u64 s = (u64)rn(2), M = emax(f), m = fmask(f);
	switch (rn(14)) {
	case 0: return pack(f, s, 0, 0);                   /* zero */
	case 1: return pack(f, s, 0, 1);                   /* min subnormal */
	case 2: return pack(f, s, 0, m);                   /* max subnormal */
	case 3: return pack(f, s, 1, 0);                   /* min normal */
	case 4: return pack(f, s, M - 1, m);               /* max finite */
	case 5: return pack(f, s, M, 0);                   /* inf */
	case 6: return pack(f, s, M, 1ull << (f.fbits - 1)); /* qNaN */
	case 7: return pack(f, s, M, 1);                   /* sNaN */
	case 8: return pack(f, s, M, (1ull << (f.fbits - 1)) | rnd()); /* qNaN payload */
	case 9: return pack(f, s, M, (rnd() & (m >> 1)) | 1); /* sNaN payload */
	case 10: return pack(f, s, (u64)f.bias, 0);        /* 1 */
	case 11: return pack(f, s, (u64)f.bias, 1);        /* 1 + ulp */
	case 12: return pack(f, s, (u64)f.bias - 1, m);    /* 1 - ulp/2 */
	default: return pack(f, s, (u64)f.bias + 1, 0);    /* 2 */
	}
}

static u64 mant(fmt f) {
	u64 m = fmask(f);
	int k;
	switch (rn(8)) {
	case 0: case 1: return rnd() & m;
	case 2: k = rn(f.fbits) + 1; return rnd() & m & ~((1ull << (f.fbits - k)) - 1); /* short */
	case 3: return m & ~((1ull << rn(5)) - 1);  /* ones */
	case 4: return 1ull << rn(f.fbits);         /* one bit */
	case 5: { int lo = rn(f.fbits), len = rn(f.fbits - lo) + 1;
		return (((1ull << len) - 1) << lo) & m; }
	case 6: return rnd() & 0xf;                 /* low bits */
	default: return (rnd() & m) | (m >> 1 & ~(m >> 8)); /* dense top */
	}
}

static u64 anyexp(fmt f) {
	u64 M = emax(f);
	switch (rn(6)) {
	case 0: return (u64)rn((int)M); /* any finite */
	case 1: return (u64)rn(f.fbits + 6);
	case 2: return M - 1 - (u64)rn(f.fbits + 6);
	default: return (u64)(f.bias - 45 + rn(90));
	}
}

static u64 value(fmt f) {
	if (rn(10) == 0) return special(f);
	return pack(f, (u64)rn(2), anyexp(f), mant(f));
}

static u64 clampexp(fmt f, long e) {
	if (e < 0) return 0;
	if (e > (long)emax(f) - 1) return emax(f) - 1;
	return (u64)e;
}

/* An operand whose exponent is near that of a (or a perturbed). */
static u64 near(fmt f, u64 a) {
	if (expof(f, a) == emax(f)) return value(f);
	if (rn(3) == 0) {
		u64 v = a + (u64)rn(5) - 2;
		if (expof(f, v) == emax(f) || signof(f, v) != signof(f, a)) v = a;
		return v ^ ((u64)rn(2) << (f.fbits + f.ebits));
	}
	long e = (long)expof(f, a) + rn(2 * f.fbits + 10) - f.fbits - 5;
	return pack(f, (u64)rn(2), clampexp(f, e), mant(f));
}

/* b such that a*b (prod) or a/b (quot) lands near underflow or overflow. */
static u64 extreme(fmt f, u64 a, int quot) {
	long ea = (long)expof(f, a), e;
	long target = rn(2) ? 1 : (long)emax(f) - 1; /* biased result exponent */
	if (quot)
		e = ea - target + f.bias;
	else
		e = target - ea + f.bias;
	e += rn(5) - 2;
	return pack(f, (u64)rn(2), clampexp(f, e), mant(f));
}

/* b such that a*b (prod) or a/b (quot) is within a few ulps of the smallest
 * normal number, where tininess after rounding decides the UF flag. */
static u64 tomin(fmt f, u64 a, int quot) {
	u64 b;
	if (f.fbits == 52) {
		double da = fabs(D(a)), t = 0x1p-1022 * (1 - ldexp(rn(4), -52));
		if (!(da > 0) || isinf(da)) return value(f);
		b = DU(quot ? da / t : t / da);
	} else {
		float da = fabsf(F((u32)a)), t = 0x1p-126f * (1 - ldexpf((float)rn(4), -23));
		if (!(da > 0) || isinf(da)) return value(f);
		b = FU(quot ? da / t : t / da);
	}
	if (expof(f, b) == emax(f) || expof(f, b) == 0) return value(f);
	return (b + (u64)rn(5) - 2) ^ ((u64)rn(2) << (f.fbits + f.ebits));
}

/* Doubles near the single-precision underflow and overflow thresholds. */
static u64 narrowing_value(void) {
	u64 m = rn(2) ? fmask(F64) & ~((u64)rn(1 << 12)) : rnd();
	switch (rn(4)) {
	case 0: return pack(F64, (u64)rn(2), 896 + (u64)rn(2), m); /* ~2^-127..2^-126 */
	case 1: return pack(F64, (u64)rn(2), 1150, m);             /* ~MaxFloat32 */
	case 2: return pack(F64, (u64)rn(2), 874 - (u64)rn(30), m); /* single subnormals */
	default: return value(F64);
	}
}

/* ---- driver ---------------------------------------------------------------- */

static void emit(const char *name, opfn fn, const u64 *in, int n, int permode) {
	printf("%s", name);
	for (int i = 0; i < n; i++) printf(" %llx", (unsigned long long)in[i]);
	for (int m = 0; m < (permode ? 4 : 1); m++) {
		fesetround(modes[m]);
		res o = fn(in);
		fesetround(FE_TONEAREST);
		printf(" %llx %x", (unsigned long long)o.r, o.fl);
	}
	printf("\n");
}

static void gen_arith(const char *name, opfn fn, fmt f, int arity, int count, int kind) {
	/* kind: 0 add-like, 1 mul, 2 div, 3 sqrt, 4 fma */
	for (int i = 0; i < count; i++) {
		u64 in[3];
		in[0] = value(f);
		if (arity >= 2) {
			int r = rn(8);
			if ((kind == 1 || kind == 2 || kind == 4) && r < 1)
				in[1] = extreme(f, in[0], kind == 2);
			else if ((kind == 1 || kind == 2 || kind == 4) && r < 2)
				in[1] = tomin(f, in[0], kind == 2);
			else if (r < 5)
				in[1] = near(f, in[0]);
			else
				in[1] = value(f);
		}
		if (kind == 3 && rn(4) != 0) in[0] &= ~(1ull << (f.fbits + f.ebits)); /* mostly positive */
		if (arity == 3) {
			int r = rn(6);
			if (r < 2) { /* c close to -(a*b): massive cancellation */
				u64 p;
				if (f.fbits == 52) {
					p = DU(D(in[0]) * D(in[1]));
				} else {
					p = FU(F(in[0]) * F(in[1]));
				}
				u64 c = (p ^ (1ull << (f.fbits + f.ebits))) + (u64)rn(7) - 3;
				if (expof(f, p) == emax(f) || expof(f, c) == emax(f) || signof(f, c) == signof(f, p))
					c = value(f);
				in[2] = c;
			} else if (r < 3 && expof(f, in[1]) != emax(f)) { /* tiny c: the sum rounds like the product */
				in[2] = pack(f, (u64)rn(2), (u64)rn(3), mant(f));
			} else if (r < 4) { /* c near the product's exponent */
				long e = (long)expof(f, in[0]) + (long)expof(f, in[1]) - f.bias + rn(2 * f.fbits + 10) -
				         f.fbits - 5;
				in[2] = pack(f, (u64)rn(2), clampexp(f, e), mant(f));
			} else {
				in[2] = value(f);
			}
		}
		emit(name, fn, in, arity, 1);
	}
}

/* Values around integer conversion limits. */
static double limit_value(void) {
	static const double bases[] = {0, 1, 2, 0x1p31, 0x1p32, 0x1p63, 0x1p64, 0x1p24, 0x1p53, 3, 100};
	static const double fracs[] = {0, 0.25, 0.5, 0.75, -0.25, -0.5, -0.75, 1, -1, 1.5, -1.5};
	double b = bases[rn(sizeof bases / sizeof *bases)];
	double v = b + fracs[rn(sizeof fracs / sizeof *fracs)];
	if (rn(3) == 0) v = nextafter(b, rn(2) ? INFINITY : 0) * (rn(3) ? 1 : 1.0000000001);
	return rn(2) ? -v : v;
}

static void gen_f2i(const char *name, opfn fn, int single, int count) {
	for (int i = 0; i < count; i++) {
		u64 in;
		int r = rn(4);
		if (r == 0) {
			double v = limit_value();
			in = single ? FU((float)v) : DU(v);
		} else if (r == 1) {
			in = single ? value(F32) : value(F64);
		} else { /* magnitudes 2^-2 .. 2^66 */
			fmt f = single ? F32 : F64;
			in = pack(f, (u64)rn(2), (u64)(f.bias - 2 + rn(69)), mant(f));
		}
		emit(name, fn, &in, 1, 1);
	}
}

static u64 int_value(int bits) {
	u64 v;
	switch (rn(5)) {
	case 0: v = rnd(); break;
	case 1: v = rnd() >> rn(64); break;
	case 2: { int k = rn(bits); v = (1ull << k) + (u64)rn(9) - 4; break; } /* near powers of two */
	case 3: { int k = 20 + rn(bits - 20); v = ((rnd() | 1ull << 63) >> (63 - k)) | 1; break; } /* ties */
	default: v = (u64)(int64_t)(rn(2001) - 1000); break;
	}
	if (bits == 32) v &= 0xffffffffu;
	return v;
}

static void gen_i2f(const char *name, opfn fn, int bits, int count, int permode) {
	for (int i = 0; i < count; i++) {
		u64 in = int_value(bits);
		if (bits == 32 && rn(2)) in = (u64)(u32)(int32_t)(int64_t)(rnd() >> rn(64)); /* sign-extended */
		emit(name, fn, &in, 1, permode);
	}
}

static void gen_unary(const char *name, opfn fn, fmt f, int count, int permode) {
	for (int i = 0; i < count; i++) {
		u64 in = value(f);
		emit(name, fn, &in, 1, permode);
	}
}

static void gen_binary(const char *name, opfn fn, fmt f, int count) {
	for (int i = 0; i < count; i++) {
		u64 in[2];
		in[0] = value(f);
		in[1] = rn(3) == 0 ? in[0] ^ ((u64)rn(2) << (f.fbits + f.ebits)) : (rn(2) ? near(f, in[0]) : value(f));
		emit(name, fn, in, 2, 0);
	}
}

int main(int argc, char **argv) {
	double scale = argc > 1 ? atof(argv[1]) : 1.0;
#define N(x) ((int)((x) * scale))
	if (!__builtin_cpu_supports("fma")) {
		fprintf(stderr, "gen: host CPU lacks FMA; fma() would not be a hardware oracle\n");
		return 1;
	}
	struct {
		const char *name;
		opfn fn;
		fmt f;
		int arity, count, kind;
	} arith[] = {
		{"add64", add64, F64, 2, N(4000), 0},     {"sub64", sub64, F64, 2, N(2000), 0},
		{"mul64", mul64, F64, 2, N(4000), 1},     {"div64", div64, F64, 2, N(4000), 2},
		{"sqrt64", sqrt64, F64, 1, N(3000), 3},   {"fmadd64", fmadd64, F64, 3, N(5000), 4},
		{"fmsub64", fmsub64, F64, 3, N(1500), 4}, {"fnmsub64", fnmsub64, F64, 3, N(1500), 4},
		{"fnmadd64", fnmadd64, F64, 3, N(1500), 4},
		{"add32", add32, F32, 2, N(4000), 0},     {"sub32", sub32, F32, 2, N(2000), 0},
		{"mul32", mul32, F32, 2, N(4000), 1},     {"div32", div32, F32, 2, N(4000), 2},
		{"sqrt32", sqrt32, F32, 1, N(3000), 3},   {"fmadd32", fmadd32, F32, 3, N(5000), 4},
		{"fmsub32", fmsub32, F32, 3, N(1500), 4}, {"fnmsub32", fnmsub32, F32, 3, N(1500), 4},
		{"fnmadd32", fnmadd32, F32, 3, N(1500), 4},
	};
	for (size_t i = 0; i < sizeof arith / sizeof *arith; i++) {
		gen_arith(arith[i].name, arith[i].fn, arith[i].f, arith[i].arity, arith[i].count, arith[i].kind);
	}
	gen_unary("f32tof64", f32tof64, F32, N(1500), 0);
	for (int i = 0; i < N(3000); i++) {
		u64 in = narrowing_value();
		emit("f64tof32", f64tof32, &in, 1, 1);
	}
	gen_f2i("f64toi32", f64toi32, 0, N(2500));
	gen_f2i("f64tou32", f64tou32, 0, N(2500));
	gen_f2i("f64toi64", f64toi64, 0, N(2500));
	gen_f2i("f64tou64", f64tou64, 0, N(2500));
	gen_f2i("f32toi32", f32toi32, 1, N(2000));
	gen_f2i("f32tou32", f32tou32, 1, N(2000));
	gen_f2i("f32toi64", f32toi64, 1, N(2000));
	gen_f2i("f32tou64", f32tou64, 1, N(2000));
	gen_i2f("i32tof64", i32tof64, 32, N(800), 0);
	gen_i2f("u32tof64", u32tof64, 32, N(800), 0);
	gen_i2f("i64tof64", i64tof64, 64, N(2500), 1);
	gen_i2f("u64tof64", u64tof64, 64, N(2500), 1);
	gen_i2f("i32tof32", i32tof32, 32, N(2000), 1);
	gen_i2f("u32tof32", u32tof32, 32, N(2000), 1);
	gen_i2f("i64tof32", i64tof32, 64, N(2000), 1);
	gen_i2f("u64tof32", u64tof32, 64, N(2000), 1);
	gen_binary("eq64", eq64, F64, N(1500));
	gen_binary("lt64", lt64, F64, N(1500));
	gen_binary("le64", le64, F64, N(1500));
	gen_binary("eq32", eq32, F32, N(1500));
	gen_binary("lt32", lt32, F32, N(1500));
	gen_binary("le32", le32, F32, N(1500));
	gen_binary("min64", min64, F64, N(1500));
	gen_binary("max64", max64, F64, N(1500));
	gen_binary("min32", min32, F32, N(1500));
	gen_binary("max32", max32, F32, N(1500));
	gen_unary("class64", class64, F64, N(1000), 0);
	gen_unary("class32", class32, F32, N(1000), 0);
	return 0;
}
