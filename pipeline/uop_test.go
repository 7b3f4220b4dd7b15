package pipeline

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
)

// TestDecodeCache: classify through the decode cache gives every uop the
// static fields and flags that decoding its instruction gives (staticOf),
// and the same uop as classify with an empty cache,
// on the mixed program's stream and on streams built to defeat the cache:
// different encodings at one PC (code rewritten), PCs that share a slot,
// DISE-injected instructions at a replaced instruction's PC, and records
// without an encoding. The static flags that stand for fields in rename
// and commit (fIntDest, fFPDest, fDispatchRare) agree with the fields.
func TestDecodeCache(t *testing.T) {
	code, setup := mixedProgram(t)
	streams := map[string][]cpu.DynInst{"mixed": record(t, code, setup), "collisions": cacheDefeating(t)}
	for name, insts := range streams {
		dc := new(decodeCache)
		for i := range insts {
			var got, want uop
			got.classify(&insts[i], dc)
			want.classify(&insts[i], new(decodeCache))
			require.Equal(t, want, got, "%s: instruction %d (pc %#x, %v)", name, i, insts[i].PC, insts[i].Inst.Op)
			flags, st := staticOf(&insts[i].Inst)
			require.Equal(t, st, got.uopStatic, "%s: instruction %d (pc %#x, %v)", name, i, insts[i].PC, insts[i].Inst.Op)
			// Rename reads the sources as one word, up to the first zero byte.
			for k, r := range got.src {
				require.Equal(t, k < int(got.nsrc), r != 0, "%s: instruction %d: source %d of %d is %d", name, i, k, got.nsrc, r)
			}
			dynamic := fTaken | fInjected | fDISEBranch | fHandlerEntry | fReplaced | fStore // fStore: a failed SC
			require.Equal(t, flags&^dynamic, got.flags&^dynamic, "%s: instruction %d flags", name, i)
			// The static flags rename and commit test instead of the fields.
			require.Equal(t, got.dest != 0 && isIntReg(got.dest), got.flags&fIntDest != 0, "%s: instruction %d: fIntDest", name, i)
			require.Equal(t, got.dest != 0 && !isIntReg(got.dest), got.flags&fFPDest != 0, "%s: instruction %d: fFPDest", name, i)
			if got.flags&(fLoad|fStore|fSerial) != 0 || got.dsrc|got.pseudo != 0 {
				require.NotZero(t, got.flags&fDispatchRare, "%s: instruction %d: fDispatchRare", name, i)
			}
		}
	}
}

// cacheDefeating is a stream built to defeat the decode cache and the
// intake's fast path: other encodings at one PC (code rewritten), PCs that
// share a slot, DISE-injected instructions at a replaced instruction's PC
// (whose encoding does not match), the first of a replacement, records
// without an encoding, a failed and a successful SC, each repeated so
// that the cache holds the slot's entry the second time.
func cacheDefeating(t testing.TB) []cpu.DynInst {
	a := straight(t, 0x1000, "add x1, x2, x3", "ld x4, 8(x5) @0x8000", "fadd.d f1, f2, f3", "sd x6, 0(x7) @0x8008", "sc.w x5, x6, (x7) @0x8020")
	b := straight(t, 0x1000, "sub x9, x10, x11", "sd x12, 0(x13) @0x8010", "csrr x14, fflags", "lw x15, 4(x16) @0x8004", "beq x1, x2, 8")
	far := straight(t, 0x1000+2*decodeSlots, "mul x17, x18, x19", "fsd f4, 0(x20) @0x8018", "jalr x0, 0(x1)", "addi x2, x2, -16", "jal x0, 16")
	var out []cpu.DynInst
	for i := range a {
		inj := b[i]
		inj.PC, inj.Injected, inj.Taken = a[i].PC, true, i == 4
		inj.Inst.Raw = a[i].Inst.Raw // built by DISE, not decoded: the encoding need not match
		noRaw := far[i]
		noRaw.Inst.Raw = 0
		fresh := noRaw // at a slot nothing else uses (an empty entry's raw is 0 too)
		fresh.PC = 0x1100 + 4*uint64(i)
		rep := a[i]
		rep.Replaced = true
		failed := a[i]
		failed.Result = 1 // an SC's failure code; other instructions' results are values
		taken := far[i]
		taken.Taken = true
		out = append(out, a[i], b[i], far[i], a[i], inj, a[i], noRaw, fresh, far[i], a[i], rep, a[i], failed, a[i], taken, taken)
	}
	return out
}

// TestIntake: intake over a run of records (the Retire path, one call
// per run) gives each slot what classify gives its record alone, with the
// context-switch flag where the thread changes (not at position 0), into
// a ring that wraps.
func TestIntake(t *testing.T) {
	code, setup := mixedProgram(t)
	streams := map[string][]cpu.DynInst{
		"mixed":      record(t, code, setup),
		"loop":       record(t, loopProgram(t, rotating(62)...), iters(5)),
		"collisions": cacheDefeating(t),
	}
	for name, insts := range streams {
		for i := range insts {
			insts[i].Tid = uint32(100 + i/7%3) // a thread change every 7 records
		}
		win := make([]uop, 16)
		dc := new(decodeCache)
		tid := insts[0].Tid
		for start := 0; start < len(insts); start += 5 { // runs of 5, wrapping the 16-slot ring
			end := min(start+5, len(insts))
			prev := tid
			tid = dc.intake(win, 15, uint64(start), insts[start:end], tid)
			for i := start; i < end; i++ {
				var want uop
				want.pos = uint64(i)
				want.classify(&insts[i], new(decodeCache))
				if insts[i].Tid != prev && i != 0 {
					want.flags |= fSwitch
				}
				prev = insts[i].Tid
				require.Equal(t, want, win[i&15], "%s: instruction %d", name, i)
			}
			require.Equal(t, prev, tid)
		}
	}
}

// TestWindowReusesSlots: intake leaves a slot's readyAt, fwd and sidx as
// the slot's last instruction left them (each is written before it is
// read), and sets doneAt, so a run on a window filled with garbage gives
// every preset the cycles and statistics of a run on a fresh one.
func TestWindowReusesSlots(t *testing.T) {
	code, setup := mixedProgram(t)
	streams := map[string][]cpu.DynInst{
		"mixed": record(t, code, setup),
		"loop":  record(t, loopProgram(t, rotating(62)...), iters(40)),
	}
	for _, preset := range config.Presets() {
		m, err := config.Preset(preset)
		require.NoError(t, err)
		for name, insts := range streams {
			fresh := feed(t, m, insts, 256, nil)
			for _, junk := range []uint64{^uint64(0), 1, 0x5a5a5a5a} {
				dirty := feed(t, m, insts, 256, func(c *Core) {
					for i := range c.win {
						u := &c.win[i]
						u.readyAt, u.doneAt, u.fwd, u.sidx = junk, junk, junk, junk
					}
				})
				require.Equal(t, fresh.Cycles(), dirty.Cycles(), "%s, %s, junk %#x: cycles", preset, name, junk)
				require.True(t, reflect.DeepEqual(fresh.Stats(), dirty.Stats()), "%s, %s, junk %#x: statistics differ", preset, name, junk)
			}
		}
	}
}

// TestDoneAtUntilIssued: commit takes "doneAt <= now" alone for "issued and
// done" (the fIssued test it spares), which holds only while every slot in
// flight that has not issued has doneAt ^0. Checked at every commit, on
// every preset, over a window filled with garbage first.
func TestDoneAtUntilIssued(t *testing.T) {
	atEveryCommit(t, func(c *Core) {
		for i := range c.win {
			c.win[i].doneAt = 1
		}
	}, func(c *Core, where string) (checks int) {
		for pos := c.head; pos < min(c.tail, c.head+96); pos++ { // (the oldest 96: enough to span the in-flight part)
			if u := &c.win[pos&c.mask]; u.flags&fIssued == 0 {
				checks++
				if u.doneAt != ^uint64(0) {
					t.Fatalf("%s: position %d, not issued, has doneAt %d at cycle %d", where, pos, u.doneAt, c.now)
				}
			}
		}
		return checks
	})
}

// atEveryCommit runs the mixed program, the DISE stream and the stream
// built to defeat the decode cache on every preset, each core set up by
// setup (if not nil), and calls check at every commit (from a retire hook
// that stalls nothing) with the preset and stream's name; check returns
// how many things it checked, which must not be none for a stream.
func atEveryCommit(t *testing.T, setup func(c *Core), check func(c *Core, where string) int) {
	t.Helper()
	code, prog := mixedProgram(t)
	streams := map[string][]cpu.DynInst{
		"mixed":      record(t, code, prog),
		"dise":       diseProgram(t),
		"collisions": cacheDefeating(t),
	}
	for _, preset := range config.Presets() {
		m, err := config.Preset(preset)
		require.NoError(t, err)
		for name, insts := range streams {
			checks, where := 0, preset+", "+name
			feed(t, m, insts, 64, func(c *Core) {
				if setup != nil {
					setup(c)
				}
				c.SetDropHookStalls(true) // (no twin: the hook stalls nothing)
				c.SetRetireHook(func(*Commit) uint64 {
					checks += check(c, where)
					return 0
				}, cpu.AllClasses)
			})
			require.NotZero(t, checks, where)
		}
	}
}
