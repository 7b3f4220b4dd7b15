package profile

import "github.com/rvsim/rvsim/elf"

// Resolver names the function, source file and line of a code address
// (fn "" and line 0 where it does not know them).
type Resolver func(pc uint64) (fn, file string, line int)

// NewResolver resolves runtime addresses of a program loaded with bias:
// functions from sym (the ELF's symbols), files and lines from its DWARF
// line table (elf.ReadLineTable; nil: none).
func NewResolver(sym Symbolizer, lines *elf.LineTable, bias uint64) Resolver {
	return func(pc uint64) (string, string, int) {
		fn := ""
		if sym != nil {
			fn = sym(pc)
		}
		if lines != nil {
			if file, line, ok := lines.Lookup(pc - bias); ok {
				return fn, file, line
			}
		}
		return fn, "", 0
	}
}
