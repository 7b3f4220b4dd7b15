package syscalls

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzSeccompFilter feeds random programs to the filter checks: whatever
// they accept must run on any seccomp_data without a panic (no load out
// of range, no jump past the end, no unstored scratch word read as
// stored) and end in one of its returns.
func FuzzSeccompFilter(f *testing.F) {
	f.Add([]byte{0x20, 0, 0, 0, 0, 0, 0, 0, 0x15, 0, 0, 1, 172, 0, 0, 0, 0x06, 0, 0, 0, 0, 0, 5, 0, 0x06, 0, 0, 0, 0, 0, 0xff, 0x7f}, uint64(172))
	f.Add([]byte{0x02, 0, 0, 0, 3, 0, 0, 0, 0x60, 0, 0, 0, 3, 0, 0, 0, 0x16, 0, 0, 0, 0, 0, 0, 0}, uint64(0))
	f.Fuzz(func(t *testing.T, raw []byte, arg uint64) {
		n := len(raw) / 8
		if n == 0 || n > 64 {
			return
		}
		prog := make([]sockFilter, n)
		for i := range prog {
			b := raw[8*i:]
			prog[i] = sockFilter{code: le16(b), jt: b[2], jf: b[3], k: u32(b, 4)}
		}
		if !seccompCheckFilter(prog) {
			return
		}
		returns := map[uint32]bool{}
		for _, in := range prog {
			if in.code == bpfRET|bpfK {
				returns[in.k] = true
			}
		}
		data := [16]uint32{uint32(arg), auditArchRISCV64, uint32(arg >> 7), 0, uint32(arg), uint32(arg >> 32)}
		got := runFilter(prog, &data)
		hasRetA := false
		for _, in := range prog {
			hasRetA = hasRetA || in.code == bpfRET|bpfA
		}
		// A result is one of the constant returns, A's (anything), or 0 (a
		// division by a zero X).
		require.True(t, returns[got] || hasRetA || got == 0, "result %#x", got)
	})
}

// TestSeccompChecks: the checks' answers on programs written to pass or
// fail one rule each (the same cases seccomp.c gives a Linux host).
func TestSeccompChecks(t *testing.T) {
	ret := sockFilter{code: bpfRET | bpfK, k: seccompRetAllow}
	for _, c := range []struct {
		name string
		prog []sockFilter
		ok   bool
	}{
		{"allow", []sockFilter{ret}, true},
		{"load nr", []sockFilter{{code: bpfLD | bpfW | bpfABS, k: 0}, ret}, true},
		{"load the last word", []sockFilter{{code: bpfLD | bpfW | bpfABS, k: 60}, ret}, true},
		{"load past the data", []sockFilter{{code: bpfLD | bpfW | bpfABS, k: 64}, ret}, false},
		{"unaligned load", []sockFilter{{code: bpfLD | bpfW | bpfABS, k: 2}, ret}, false},
		{"half-word load", []sockFilter{{code: 0x28, k: 0}, ret}, false},
		{"modulo", []sockFilter{{code: bpfALU | 0x90 | bpfK, k: 3}, ret}, false},
		{"divide by constant 0", []sockFilter{{code: bpfALU | bpfDIV | bpfK}, ret}, false},
		{"shift by 31", []sockFilter{{code: bpfALU | bpfLSH | bpfK, k: 31}, ret}, true},
		{"shift by 32", []sockFilter{{code: bpfALU | bpfRSH | bpfK, k: 32}, ret}, false},
		{"scratch 15", []sockFilter{{code: bpfST, k: 15}, ret}, true},
		{"scratch 16", []sockFilter{{code: bpfSTX, k: 16}, ret}, false},
		{"load before store", []sockFilter{{code: bpfLD | bpfMEM, k: 1}, ret}, false},
		{"store then load", []sockFilter{{code: bpfST, k: 1}, {code: bpfLDX | bpfMEM, k: 1}, ret}, true},
		{"stored on one path", []sockFilter{{code: bpfJMP | bpfJEQ | bpfK, jt: 1}, {code: bpfST}, {code: bpfLD | bpfMEM}, ret}, false},
		{"ja to the end", []sockFilter{{code: bpfJMP | bpfJA, k: 1}, ret, ret}, true},
		{"ja past the end", []sockFilter{{code: bpfJMP | bpfJA, k: 2}, ret, ret}, false},
		{"jeq past the end", []sockFilter{{code: bpfJMP | bpfJEQ | bpfK, jf: 2}, ret, ret}, false},
		{"no return last", []sockFilter{ret, {code: bpfLD | bpfIMM}}, false},
		{"return A", []sockFilter{{code: bpfRET | bpfA}}, true},
	} {
		require.Equal(t, c.ok, seccompCheckFilter(c.prog), c.name)
	}
}
