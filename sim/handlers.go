package sim

import (
	"encoding/binary"
	"fmt"

	"github.com/rvsim/rvsim/dise"
	"github.com/rvsim/rvsim/elf"
	"github.com/rvsim/rvsim/mem"
	"github.com/rvsim/rvsim/profile"
)

// Handler runtime symbols (toolchain/handlers/src).
const (
	symMailbox  = "dise_mailbox"
	symStackTop = "dise_stack_top"
	symABI      = "hps_runtime_abi"
)

// ReadHandlerRuntime reads what a handler runtime ELF declares, without a
// program to run: `rvsim acf --handlers` checks ACFs against it.
func ReadHandlerRuntime(path string) (*dise.Runtime, error) {
	hp, err := elf.LoadFile(path)
	if err != nil {
		return nil, fmt.Errorf("handler runtime: %v", err)
	}
	m := mem.New()
	if _, err := hp.Load(m, 0); err != nil {
		return nil, fmt.Errorf("handler runtime %s: %v", path, err)
	}
	rt, _, err := describeHandlers(path, hp, m)
	return rt, err
}

// describeHandlers reads a handler runtime loaded into m: the engine's
// view of it (mailbox, stack, entry points and their declarations) and
// its description of the profiles it collects.
func describeHandlers(path string, hp *elf.Program, m *mem.Memory) (*dise.Runtime, *profile.Runtime, error) {
	need := func(name string) (uint64, error) {
		s, ok := hp.Lookup(name)
		if !ok {
			return 0, fmt.Errorf("handler runtime %s: no symbol %s (not an rvsim handler runtime?)", path, name)
		}
		return s.Value, nil
	}
	mailbox, err := need(symMailbox)
	if err != nil {
		return nil, nil, err
	}
	stack, err := need(symStackTop)
	if err != nil {
		return nil, nil, err
	}
	abiAddr, err := need(symABI)
	if err != nil {
		return nil, nil, err
	}
	var b [8]byte
	if err := m.Peek(abiAddr, b[:]); err != nil || binary.LittleEndian.Uint64(b[:]) != profile.RuntimeABI {
		return nil, nil, fmt.Errorf("handler runtime %s: ABI version %d, want %d (rebuild it with make)", path, binary.LittleEndian.Uint64(b[:]), profile.RuntimeABI)
	}
	lookup := func(name string) (uint64, bool) {
		s, ok := hp.Lookup(name)
		return s.Value, ok
	}
	desc, err := profile.ReadRuntime(m.Peek, lookup)
	if err != nil {
		return nil, nil, fmt.Errorf("handler runtime %s: %v", path, err)
	}
	rt := &dise.Runtime{Mailbox: mailbox, Stack: stack, File: path, Handlers: map[string]dise.HandlerInfo{}}
	for _, s := range hp.Symbols {
		if s.Func && s.Name != "" && s.Name[0] >= 'A' && s.Name[0] <= 'Z' {
			rt.Names = append(rt.Names, s.Name)
		}
	}
	rt.Lookup = func(name string) (uint64, bool) {
		s, ok := hp.Lookup(name)
		if !ok || !s.Func {
			return 0, false
		}
		return s.Value, true
	}
	for n, h := range desc.Handlers {
		rt.Handlers[n] = dise.HandlerInfo{MinArgs: h.MinArgs, MaxArgs: h.MaxArgs, Tagged: h.Tagged}
	}
	return rt, desc, nil
}

// namedProfiles are the profiles an ACF names, as package profile reads them.
func namedProfiles(prog *dise.Program) []profile.Named {
	var out []profile.Named
	for _, np := range prog.NamedProfiles() {
		n := profile.Named{Name: np.Name, Handler: np.Handler, Tag: np.Tag}
		for _, k := range np.Keys {
			n.Keys = append(n.Keys, profile.Field{Name: k.Name, Format: profile.Format(k.Format)})
		}
		out = append(out, n)
	}
	return out
}
