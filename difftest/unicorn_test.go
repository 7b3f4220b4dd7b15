package difftest

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/mem"
)

const (
	testCode = 0x10000
	testData = 0x20000
)

// newTestUnicorn opens an engine with a code page (R+X) and a data page
// (R+W) mapped.
func newTestUnicorn(t *testing.T) *Unicorn {
	t.Helper()
	needOracle(t)
	u, err := NewUnicorn()
	require.NoError(t, err)
	t.Cleanup(func() { u.Close() })
	require.NoError(t, u.Map(testCode, mem.PageSize, mem.RX))
	require.NoError(t, u.Map(testData, mem.PageSize, mem.RW))
	return u
}

// asm assembles 32-bit instructions (isa.Assemble) into code bytes.
func asm(t *testing.T, lines ...string) []byte {
	t.Helper()
	var b []byte
	for _, l := range lines {
		in, err := isa.Assemble(l)
		require.NoError(t, err)
		b = binary.LittleEndian.AppendUint32(b, in.Raw)
	}
	return b
}

func TestMissingLibraryErrorIsOneLine(t *testing.T) {
	msg := (&MissingLibraryError{}).Error()
	assert.NotContains(t, msg, "\n")
	assert.Contains(t, msg, "make setup")
	assert.Contains(t, msg, LibraryName)
}

func TestUnicornVersion(t *testing.T) {
	needOracle(t)
	v, err := UnicornVersion()
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(v, "2."), "version %s", v)
}

func TestUnicornStateRoundTrip(t *testing.T) {
	u := newTestUnicorn(t)
	var in, out State
	for i := 1; i < 32; i++ {
		in.X[i] = 0x0101010101010101 * uint64(i)
	}
	for i := range in.F {
		in.F[i] = 0xf0f0f0f000000000 | uint64(i)
	}
	in.PC, in.FCSR = testCode+0x40, 3<<5|0x11
	require.NoError(t, u.WriteState(&in))
	require.NoError(t, u.ReadState(&out))
	assert.Equal(t, in, out)
	assert.Equal(t, uint8(0x11), out.FFlags())
	assert.Equal(t, uint8(3), out.FRM())
	require.NoError(t, u.SetX(7, 77))
	require.NoError(t, u.ReadState(&out))
	assert.Equal(t, uint64(77), out.X[7])
	assert.Error(t, u.SetX(0, 1), "x0 cannot be written")
}

func TestUnicornMemory(t *testing.T) {
	u := newTestUnicorn(t)
	data := []byte("0123456789abcdefXYZ")
	require.NoError(t, u.WriteMem(testData+5, data))
	got := make([]byte, len(data))
	require.NoError(t, u.ReadMem(testData+5, got))
	assert.Equal(t, data, got)
	small := make([]byte, 3)
	require.NoError(t, u.ReadMem(testData+6, small))
	assert.Equal(t, []byte("123"), small)

	require.NoError(t, u.Map(0x30000, 2*mem.PageSize, mem.RW))
	require.NoError(t, u.Protect(0x30000, mem.PageSize, mem.R))
	require.NoError(t, u.Unmap(0x31000, mem.PageSize))
	assert.Error(t, u.ReadMem(0x31000, small), "unmapped")
	var ue *UnicornError
	assert.ErrorAs(t, u.Map(testData, mem.PageSize, mem.RW), &ue, "mapping twice")

	require.NoError(t, u.Reset())
	assert.Error(t, u.ReadMem(testData, small), "Reset unmaps everything")
	require.NoError(t, u.Map(testData, mem.PageSize, mem.RW), "and the range can be mapped again")
}

// TestUnicornStep executes single instructions with hand-computed results.
func TestUnicornStep(t *testing.T) {
	for _, tt := range []struct {
		desc   string
		code   []byte
		setup  func(s *State)
		check  func(t *testing.T, s *State)
		trap   uint64 // expected exception cause, 0 for none
		nextPC uint64
	}{
		{
			desc: "addi", code: asm(t, "addi a0, a1, -3"),
			setup: func(s *State) { s.X[11] = 10 },
			check: func(t *testing.T, s *State) { assert.Equal(t, uint64(7), s.X[10]) }, nextPC: testCode + 4,
		},
		{
			desc: "c.addi a0, 5 (0x0515)", code: []byte{0x15, 0x05},
			setup: func(s *State) { s.X[10] = 1 },
			check: func(t *testing.T, s *State) { assert.Equal(t, uint64(6), s.X[10]) }, nextPC: testCode + 2,
		},
		{
			desc: "divu by zero gives all ones", code: asm(t, "divu a0, a1, a2"),
			setup: func(s *State) { s.X[11], s.X[12] = 5, 0 },
			check: func(t *testing.T, s *State) { assert.Equal(t, ^uint64(0), s.X[10]) }, nextPC: testCode + 4,
		},
		{
			desc: "taken branch", code: asm(t, "beq a0, a1, .+64"),
			setup: func(s *State) { s.X[10], s.X[11] = 9, 9 },
			check: func(t *testing.T, s *State) {}, nextPC: testCode + 64,
		},
		{
			desc: "fadd.d 1.5+2.25", code: asm(t, "fadd.d fa0, fa1, fa2, rne"),
			setup: func(s *State) { s.F[11], s.F[12] = 0x3ff8000000000000, 0x4002000000000000 },
			check: func(t *testing.T, s *State) {
				assert.Equal(t, uint64(0x400e000000000000), s.F[10]) // 3.75
				assert.Zero(t, s.FFlags())
			}, nextPC: testCode + 4,
		},
		{
			desc: "fdiv.d 1/0 raises DZ", code: asm(t, "fdiv.d fa0, fa1, fa2, rne"),
			setup: func(s *State) { s.F[11], s.F[12] = 0x3ff0000000000000, 0 },
			check: func(t *testing.T, s *State) {
				assert.Equal(t, uint64(0x7ff0000000000000), s.F[10])
				assert.Equal(t, uint8(0x08), s.FFlags())
			}, nextPC: testCode + 4,
		},
		{
			desc: "ecall traps with cause 8", code: asm(t, "ecall"),
			check: func(t *testing.T, s *State) {}, trap: 8,
		},
		{
			desc: "illegal instruction traps with cause 2", code: asm(t, "csrr a0, time"),
			check: func(t *testing.T, s *State) {}, trap: 2,
		},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			u := newTestUnicorn(t)
			require.NoError(t, u.WriteMem(testCode, tt.code))
			var s State
			s.PC = testCode
			if tt.setup != nil {
				tt.setup(&s)
			}
			require.NoError(t, u.WriteState(&s))
			trap, err := u.Step(testCode)
			require.NoError(t, err)
			if tt.trap != 0 {
				require.NotNil(t, trap)
				assert.Equal(t, tt.trap, trap.Cause)
				return
			}
			require.Nil(t, trap)
			require.NoError(t, u.ReadState(&s))
			assert.Equal(t, tt.nextPC, s.PC)
			tt.check(t, &s)
		})
	}
}

// TestUnicornStore checks a store reaches memory and a load reads it back.
func TestUnicornStore(t *testing.T) {
	u := newTestUnicorn(t)
	require.NoError(t, u.WriteMem(testCode, asm(t, "sd a0, 3(a1)", "lw a2, 3(a1)")))
	s := State{PC: testCode}
	s.X[10], s.X[11] = 0x1122334455667788, testData
	require.NoError(t, u.WriteState(&s))
	for _, pc := range []uint64{testCode, testCode + 4} {
		trap, err := u.Step(pc)
		require.NoError(t, err)
		require.Nil(t, trap)
	}
	b := make([]byte, 8)
	require.NoError(t, u.ReadMem(testData+3, b))
	assert.Equal(t, uint64(0x1122334455667788), binary.LittleEndian.Uint64(b), "misaligned sd")
	require.NoError(t, u.ReadState(&s))
	assert.Equal(t, uint64(0x55667788), s.X[12], "lw sign-extends a positive word")
}

// TestUnicornCodeRewrite checks that WriteMem over code already executed
// makes the next step run the new instruction (Unicorn 2.0.1 keeps the
// stale translation otherwise).
func TestUnicornCodeRewrite(t *testing.T) {
	u := newTestUnicorn(t)
	var s State
	for i, tt := range []struct {
		line string
		want uint64
	}{{"addi a0, zero, 1", 1}, {"addi a0, zero, 2", 2}, {"addi a0, zero, 3", 3}} {
		require.NoError(t, u.WriteMem(testCode, asm(t, tt.line)), "round %d", i)
		_, err := u.Step(testCode)
		require.NoError(t, err)
		require.NoError(t, u.ReadState(&s))
		assert.Equal(t, tt.want, s.X[10], "round %d", i)
	}
}

// TestOracleLimitations pins down the behaviours of Unicorn 2.0.1 (QEMU
// 5.0) that docs/DIFFTEST.md lists and the driver handles. If a newer
// libunicorn fixes one, this test fails: update the driver and the doc.
func TestOracleLimitations(t *testing.T) {
	for _, tt := range []struct {
		desc  string
		line  string
		setup func(u *Unicorn, s *State)
		check func(t *testing.T, u *Unicorn, s *State, trap *Trap, err error)
	}{
		{
			desc: "single-precision results are not NaN-boxed",
			line: "fadd.s fa0, fa1, fa2, rne",
			setup: func(u *Unicorn, s *State) {
				s.F[11], s.F[12] = 0xffffffff3f800000, 0xffffffff3f800000 // 1.0f, boxed
			},
			check: func(t *testing.T, u *Unicorn, s *State, trap *Trap, err error) {
				assert.Equal(t, uint64(0x40000000), s.F[10], "2.0f without the box (the ISA wants 0xffffffff40000000)")
			},
		},
		{
			desc: "fmin.d with a signalling NaN returns the canonical NaN",
			line: "fmin.d fa0, fa1, fa2",
			setup: func(u *Unicorn, s *State) {
				s.F[11], s.F[12] = 0x7ff4000000000000, 0x3ff0000000000000 // sNaN, 1.0
			},
			check: func(t *testing.T, u *Unicorn, s *State, trap *Trap, err error) {
				assert.Equal(t, uint64(0x7ff8000000000000), s.F[10], "the ISA (2.2+) wants 1.0")
				assert.Equal(t, uint8(0x10), s.FFlags())
			},
		},
		{
			desc: "fmadd of inf×0 with a quiet-NaN addend does not raise invalid",
			line: "fmadd.d fa0, fa1, fa2, fa3, rne",
			setup: func(u *Unicorn, s *State) {
				s.F[11], s.F[12], s.F[13] = 0x7ff0000000000000, 0, 0x7ff8000000000000
			},
			check: func(t *testing.T, u *Unicorn, s *State, trap *Trap, err error) {
				assert.Equal(t, uint64(0x7ff8000000000000), s.F[10])
				assert.Zero(t, s.FFlags(), "the ISA wants NV (0x10)")
			},
		},
		{
			desc: "amomax.w compares the old word zero-extended",
			line: "amomax.w a0, a2, (a1)",
			setup: func(u *Unicorn, s *State) {
				_ = u.WriteMem(testData, []byte{0xff, 0xff, 0xff, 0xff}) // -1
				s.X[11], s.X[12] = testData, 5
			},
			check: func(t *testing.T, u *Unicorn, s *State, trap *Trap, err error) {
				b := make([]byte, 4)
				require.NoError(t, u.ReadMem(testData, b))
				assert.Equal(t, uint32(0xffffffff), binary.LittleEndian.Uint32(b), "the ISA wants max(-1, 5) = 5")
				assert.Equal(t, ^uint64(0), s.X[10], "the old value is returned sign-extended")
			},
		},
		{
			desc: "Zba is not implemented",
			line: "sh1add a0, a1, a2",
			check: func(t *testing.T, u *Unicorn, s *State, trap *Trap, err error) {
				require.NotNil(t, trap)
				assert.Equal(t, uint64(2), trap.Cause)
			},
		},
		{
			desc: "rdtime is illegal (no timer)",
			line: "csrr a0, time",
			check: func(t *testing.T, u *Unicorn, s *State, trap *Trap, err error) {
				require.NotNil(t, trap)
				assert.Equal(t, uint64(2), trap.Cause)
			},
		},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			u := newTestUnicorn(t)
			require.NoError(t, u.WriteMem(testCode, asm(t, tt.line)))
			s := State{PC: testCode}
			if tt.setup != nil {
				tt.setup(u, &s)
			}
			require.NoError(t, u.WriteState(&s))
			trap, err := u.Step(testCode)
			require.NoError(t, u.ReadState(&s))
			tt.check(t, u, &s, trap, err)
		})
	}
}
