// fpenv: the floating-point environment and libm as a C program sees
// them, for comparison with qemu-riscv64 (TestLinuxProgramsMatchQemu).
// Each rounding mode through fesetround (the frm field), the exception
// flags fetestexcept reads back (fflags), float and double arithmetic,
// conversions to and from integers at their edges, quad-precision long
// double (libgcc's soft quad, integer code), strtod/strtold and printf's
// %a, and libm's functions on ordinary and edge arguments.
#include <fenv.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int modes[] = {FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO};
static const char *mode_names[] = {"nearest", "down", "up", "zero"};

// volatile keeps the compiler from folding the operations at build time,
// so every one runs under the mode set at run time.
static volatile double vd[] = {1.0, 3.0, -7.5, 0.1, 1e308, 4.9e-324, -0.0, 2.5, -2.5, 0.5};
static volatile float vf[] = {1.0f, 3.0f, -7.5f, 0.1f, 3e38f, 1.4e-45f, -0.0f, 2.5f, -2.5f, 0.5f};

static void flags(const char *what) {
	int f = fetestexcept(FE_ALL_EXCEPT);
	printf("%s flags:%s%s%s%s%s\n", what, f & FE_INVALID ? " NV" : "", f & FE_DIVBYZERO ? " DZ" : "",
	       f & FE_OVERFLOW ? " OF" : "", f & FE_UNDERFLOW ? " UF" : "", f & FE_INEXACT ? " NX" : "");
	feclearexcept(FE_ALL_EXCEPT);
}

static void arithmetic(void) {
	for (int m = 0; m < 4; m++) {
		fesetround(modes[m]);
		printf("mode %s (fegetround %d)\n", mode_names[m], fegetround() == modes[m]);
		double d = vd[0] / vd[1];
		float f = vf[0] / vf[1];
		printf("  1/3 %a %a\n", d, (double)f);
		printf("  -7.5*0.1 %a %a\n", vd[2] * vd[3], (double)(vf[2] * vf[3]));
		printf("  sqrt(0.1) %a %a\n", sqrt(vd[3]), (double)sqrtf(vf[3]));
		printf("  fma %a %a\n", fma(vd[3], vd[1], vd[2]), (double)fmaf(vf[3], vf[1], vf[2]));
		printf("  1e308*10 %a\n", vd[4] * 10.0);
		printf("  denormal/2 %a %a\n", vd[5] / 2.0, (double)(vf[5] / 2.0f));
		printf("  (float)0.1 %a\n", (double)(float)vd[3]);
		printf("  rint %.1f %.1f %.1f lrint %ld %ld\n", rint(vd[7]), rint(vd[8]), nearbyint(vd[9]),
		       lrint(vd[7]), lrint(vd[8]));
		printf("  (long)2.5 %ld (long)-2.5 %ld\n", (long)vd[7], (long)vd[8]);
		printf("  (double)INT64_MAX %a (float)UINT64_MAX %a\n", (double)(int64_t)(INT64_MAX - (vd[0] > 0)),
		       (double)(float)(uint64_t)(UINT64_MAX - (vd[0] > 0)));
		long double q = (long double)vd[0] / (long double)vd[1];
		printf("  quad 1/3 %La\n", q);
		printf("  quad sqrt2 %La\n", sqrtl((long double)vd[0] * 2));
		flags("  ");
	}
	fesetround(FE_TONEAREST);
}

static void exceptions(void) {
	feclearexcept(FE_ALL_EXCEPT);
	volatile double z = vd[6];
	printf("1/-0 %a\n", vd[0] / z);
	flags("div");
	printf("0/0 %a\n", z / z);
	flags("invalid");
	printf("sqrt(-7.5) %f\n", sqrt(vd[2]));
	flags("sqrt");
	printf("max*max %a\n", DBL_MAX * (vd[0] + DBL_EPSILON));
	flags("overflow");
	printf("min*min %a\n", vd[5] * vd[3]);
	flags("underflow");
	printf("1+2 %a\n", vd[0] + 2.0);
	flags("exact");
	volatile double big = 1e20, nan = NAN, inf = INFINITY;
	printf("(int)1e20 %d (long)1e20 %ld (unsigned long)-1.0 %lu\n", (int)big, (long)big, (unsigned long)(-vd[0]));
	flags("convert");
	printf("(long)nan %ld (int)-inf %d (unsigned)nan %u\n", (long)nan, (int)-inf, (unsigned)nan);
	flags("convert nan");
	printf("nan<1 %d nan==nan %d isless %d\n", nan < 1.0, nan == nan, isless(nan, 1.0));
	flags("compare");
	printf("fmin(nan,1) %f fmax(-0,0) %f signbit %d\n", fmin(nan, 1.0), fmax(-0.0, z), signbit(fmin(-0.0, 0.0)));
	flags("minmax");
	feraiseexcept(FE_INEXACT | FE_OVERFLOW);
	flags("raised");
	fenv_t env;
	fegetenv(&env);
	fesetround(FE_UPWARD);
	feraiseexcept(FE_INVALID);
	fesetenv(&env);
	printf("restored mode nearest %d\n", fegetround() == FE_TONEAREST);
	flags("restored");
}

static void strings(void) {
	const char *in[] = {"0.1", "1e-320", "2.4703282292062327e-324", "2.4703282292062328e-324",
	                    "1.7976931348623157e308", "1.8e308", "-0", "nan", "-inf", "0x1.fffffffffffffp-1",
	                    "4.9406564584124654e-324", "123456789012345678901234567890", "9007199254740993",
	                    "0.30000000000000004", "1e23", "8.98846567431158e307"};
	for (unsigned i = 0; i < sizeof in / sizeof in[0]; i++) {
		double d = strtod(in[i], NULL);
		float f = strtof(in[i], NULL);
		long double q = strtold(in[i], NULL);
		printf("%s: %a %.17g %a %La %.36Lg\n", in[i], d, d, (double)f, q, q);
	}
	for (int m = 0; m < 4; m++) {
		fesetround(modes[m]);
		printf("%s strtod(0.1) %a printf(1/3) %.20f\n", mode_names[m], strtod("0.1", NULL), vd[0] / vd[1]);
	}
	fesetround(FE_TONEAREST);
	printf("%g %e %.0f %.30f %10.3Lf\n", 1e-5, 123456.789, 2.5, 0.1, (long double)1 / 3);
}

static void functions(void) {
	double xs[] = {0.5, 1.0, 2.0, 10.0, -3.25, 1e-10, 700.0, 3.14159265358979};
	for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; i++) {
		volatile double x = xs[i];
		printf("%g: exp %a log %a sin %a cos %a tan %a atan %a\n", x, exp(x), log(fabs(x)), sin(x), cos(x), tan(x),
		       atan(x));
		printf("   pow %a cbrt %a sinh %a tanh %a erf %a lgamma %a\n", pow(x, 1.5), cbrt(x), sinh(x / 10),
		       tanh(x), erf(x), lgamma(x));
		printf("   expf %a logf %a sinf %a powf %a\n", (double)expf((float)x), (double)logf(fabsf((float)x)),
		       (double)sinf((float)x), (double)powf(fabsf((float)x), 0.3f));
		printf("   expl %La logl %La\n", expl((long double)x / 10), logl(fabsl((long double)x)));
		int e;
		double fr = frexp(x, &e);
		printf("   atan2 %a hypot %a fmod %a remainder %a frexp %a %d ldexp %a\n", atan2(x, -1.5), hypot(x, 3.0),
		       fmod(x, 0.7), remainder(x, 0.7), fr, e, ldexp(x, -1070));
		printf("   nextafter %a floor %g ceil %g trunc %g round %g\n", nextafter(x, 0), floor(x), ceil(x), trunc(x),
		       round(x));
	}
	printf("copysign %g %d nan payload %d\n", copysign(3.0, -0.0), copysign(NAN, -1.0) < 0,
	       isnan(nan("123")));
	int64_t a = INT64_MIN, b = -1, c = 0;
	volatile int64_t va = a, vb = b, vc = c;
	printf("div %" PRId64 " rem %" PRId64 " div0 %" PRId64 " rem0 %" PRId64 " udiv0 %" PRIu64 "\n", va / vb, va % vb,
	       va / (vc ? vc : 1), va % (vc ? vc : 1), (uint64_t)va / (uint64_t)(vc + 1));
}

int main(void) {
	arithmetic();
	exceptions();
	strings();
	functions();
	return 0;
}
