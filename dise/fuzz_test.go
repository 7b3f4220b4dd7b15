package dise

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rvsim/rvsim/isa"
)

// fakeRuntime resolves every handler name.
var fakeRuntime = &Runtime{Mailbox: 0x40000, Stack: 0x50000, File: "fake",
	Lookup: func(name string) (uint64, bool) { return 0x30000 + uint64(len(name))*4, true }}

// FuzzParse checks that no input makes the parser, the checker or the
// engine panic, and that every error is one line with a position.
func FuzzParse(f *testing.F) {
	for _, pat := range []string{"testdata/*.acf", "../acf/*.acf"} {
		files, _ := filepath.Glob(pat)
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
	f.Add([]byte("P: T.OP == beq -> R\nR: {\n T.OP T.RS1, T.RS2, x\nx:\n}"))
	insts := []uint32{0x00b50463, 0x0000100b, 0x000500e7, 0x00a58593, 0x00008067, 0x4501, 0x02b50533}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := ParseFile("fuzz.acf", src)
		if err != nil {
			checkErrorList(t, err)
			return
		}
		for _, cfg := range []Config{DefaultConfig(), {PTEntries: 2, CTEntries: 1, CTInputs: 1, CTMicroOps: 1, RTEntries: 3, Counters: 2, CounterBits: 3}} {
			prog, err := Compile(cfg, file)
			if err != nil {
				checkErrorList(t, err)
				continue
			}
			e, err := New(prog, fakeRuntime)
			if err != nil {
				checkErrorList(t, err)
				continue
			}
			var regs [256]uint64
			e.regs = &regs
			for i, raw := range insts {
				in, err := isa.Decode(raw)
				if err != nil {
					t.Fatal(err)
				}
				pc := 0x10000 + uint64(i)*4
				if e.Watches(&in, pc) {
					for k := 0; k < 3; k++ {
						e.Edit(&in, pc)
					}
				}
			}
			e.Trigger(true, 0x10000)
			e.Trigger(false, 0x10000)
		}
	})
}

func checkErrorList(t *testing.T, err error) {
	t.Helper()
	list, ok := err.(ErrorList)
	if !ok {
		t.Fatalf("want an ErrorList, got %T: %v", err, err)
	}
	for _, e := range list {
		if strings.Contains(e.Msg, "\n") {
			t.Fatalf("error spans lines: %q", e.Msg)
		}
		if !e.Pos.IsValid() {
			t.Fatalf("error without a position: %v", e)
		}
	}
}

// FuzzParseTrigger: a refused --trigger value gets one line that quotes
// it; an accepted one prints (String) to a value that parses to the same
// trigger, and its schedule advances.
func FuzzParseTrigger(f *testing.F) {
	for _, s := range []string{"periodic:1000:10", "random:4:100", "random:4:100:7", "periodic:1_000:1", "random:0:1", "periodic:5:5", "phase:first", "periodic:99999999999999999999:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tr, err := ParseTrigger(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), strconv.Quote(s)) {
				t.Fatalf("error does not quote the value on one line: %q", err)
			}
			return
		}
		back, err := ParseTrigger(tr.String())
		if err != nil || back != tr {
			t.Fatalf("%q -> %v -> %v, %v", s, tr, back, err)
		}
		if fr := tr.Fraction(); !(fr > 0 && fr <= 1) {
			t.Fatalf("%v: fraction %v", tr, fr)
		}
		sch := tr.Start()
		for i := 0; i < 2; i++ { // (values are at most 2^62: no wrap in 3 steps)
			prev := sch.Next()
			sch.Fire()
			if sch.Next() <= prev {
				t.Fatalf("%v: the schedule does not advance: %d then %d", tr, prev, sch.Next())
			}
		}
	})
}
