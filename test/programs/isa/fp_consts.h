// Bit patterns of the floating-point values the F and D tests use.
#ifndef FP_CONSTS_H
#define FP_CONSTS_H

// binary32
#define S_ZERO    0x00000000
#define S_NZERO   0x80000000
#define S_ONE     0x3f800000
#define S_NONE    0xbf800000
#define S_TWO     0x40000000
#define S_NTWO    0xc0000000
#define S_THREE   0x40400000
#define S_FOUR    0x40800000
#define S_FIVE    0x40a00000
#define S_NFIVE   0xc0a00000
#define S_HALF    0x3f000000
#define S_NHALF   0xbf000000
#define S_1_5     0x3fc00000
#define S_N1_5    0xbfc00000
#define S_2_5     0x40200000
#define S_N2_5    0xc0200000
#define S_3_5     0x40600000
#define S_1_1     0x3f8ccccd   // 1.1 rounded
#define S_N1_1    0xbf8ccccd
#define S_1_9     0x3ff33333
#define S_0_7     0x3f333333
#define S_N0_7    0xbf333333
#define S_2P_24   0x33800000   // 2^-24: half an ulp of 1.0
#define S_N2P_24  0xb3800000
#define S_N2P_26  0xb2800000
#define S_1P2P_23 0x3f800001   // 1 + 2^-23
#define S_N1P2P_23 0xbf800001
#define S_INF     0x7f800000
#define S_NINF    0xff800000
#define S_QNAN    0x7fc00000   // the canonical NaN
#define S_QNAN_PL 0x7fc12345   // a quiet NaN with a payload
#define S_NQNAN   0xffc00000
#define S_SNAN    0x7f800001
#define S_MAX     0x7f7fffff
#define S_NMAX    0xff7fffff
#define S_MINN    0x00800000   // smallest normal, 2^-126
#define S_MINN1   0x00800001
#define S_SUB1    0x00000001   // smallest subnormal, 2^-149
#define S_NSUB1   0x80000001
#define S_2P31    0x4f000000
#define S_N2P31   0xcf000000
#define S_2P32    0x4f800000
#define S_2P63    0x5f000000
#define S_N2P63   0xdf000000
#define S_2P64    0x5f800000
#define S_3E9     0x4f32d05e   // 3000000000, exact
#define S_N3E9    0xcf32d05e

// binary64
#define D_ZERO    0x0000000000000000
#define D_NZERO   0x8000000000000000
#define D_ONE     0x3ff0000000000000
#define D_NONE    0xbff0000000000000
#define D_TWO     0x4000000000000000
#define D_NTWO    0xc000000000000000
#define D_THREE   0x4008000000000000
#define D_FOUR    0x4010000000000000
#define D_FIVE    0x4014000000000000
#define D_NFIVE   0xc014000000000000
#define D_HALF    0x3fe0000000000000
#define D_1_5     0x3ff8000000000000
#define D_N1_5    0xbff8000000000000
#define D_2_5     0x4004000000000000
#define D_N2_5    0xc004000000000000
#define D_3_5     0x400c000000000000
#define D_2P_53   0x3ca0000000000000   // 2^-53: half an ulp of 1.0
#define D_N2P_53  0xbca0000000000000
#define D_N2P_55  0xbc80000000000000
#define D_1P2P_52 0x3ff0000000000001
#define D_N1P2P_52 0xbff0000000000001
#define D_INF     0x7ff0000000000000
#define D_NINF    0xfff0000000000000
#define D_QNAN    0x7ff8000000000000   // the canonical NaN
#define D_QNAN_PL 0x7ff8000000012345
#define D_NQNAN   0xfff8000000000000
#define D_SNAN    0x7ff0000000000001
#define D_MAX     0x7fefffffffffffff
#define D_NMAX    0xffefffffffffffff
#define D_MINN    0x0010000000000000   // 2^-1022
#define D_MINN1   0x0010000000000001
#define D_SUB1    0x0000000000000001   // 2^-1074
#define D_NSUB1   0x8000000000000001
#define D_2P31    0x41e0000000000000
#define D_N2P31   0xc1e0000000000000
#define D_2P31M1  0x41dfffffffc00000   // 2147483647
#define D_2P31MH  0x41dfffffffe00000   // 2147483647.5
#define D_N2P31MH 0xc1e0000000100000   // -2147483648.5
#define D_2P32M1  0x41efffffffe00000   // 4294967295
#define D_2P32    0x41f0000000000000
#define D_2P63    0x43e0000000000000
#define D_N2P63   0xc3e0000000000000
#define D_2P64    0x43f0000000000000
#define D_2P64M   0x43efffffffffffff   // 2^64 - 2048, the largest double below 2^64

#endif
