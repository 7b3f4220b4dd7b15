package profile

import (
	"debug/dwarf"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
)

// Resolver names the function, source file and line of a code address
// (fn "" and line 0 where it does not know them).
type Resolver func(pc uint64) (fn, file string, line int)

// lineRow is one row of a DWARF line table: from addr on, code comes from
// file:line, until the next row; end rows close a sequence.
type lineRow struct {
	addr uint64
	file string
	line int
	end  bool
}

// LineTable is an ELF file's DWARF line tables, merged and sorted by
// address.
type LineTable struct{ rows []lineRow }

// ReadLineTable reads the DWARF line tables of the ELF file
// file (compiled with -g). A file without debug information has an empty
// table, not an error.
func ReadLineTable(file string) (*LineTable, error) {
	f, err := elf.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t := &LineTable{}
	if f.Section(".debug_info") == nil {
		return t, nil
	}
	d, err := f.DWARF()
	if err != nil {
		return nil, fmt.Errorf("%s: DWARF: %v", file, err)
	}
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil {
			return nil, fmt.Errorf("%s: DWARF: %v", file, err)
		}
		if e == nil {
			break
		}
		if e.Tag != dwarf.TagCompileUnit {
			r.SkipChildren()
			continue
		}
		lr, err := d.LineReader(e)
		if err != nil {
			return nil, fmt.Errorf("%s: DWARF line table: %v", file, err)
		}
		r.SkipChildren()
		if lr == nil {
			continue
		}
		// A relative file name is relative to the compilation directory
		// (DWARF 5 §6.2.4; debug/dwarf leaves some unjoined).
		compDir, _ := e.Val(dwarf.AttrCompDir).(string)
		var le dwarf.LineEntry
		for {
			if err := lr.Next(&le); err != nil {
				if errors.Is(err, io.EOF) {
					break
				}
				return nil, fmt.Errorf("%s: DWARF line table: %v", file, err)
			}
			row := lineRow{addr: le.Address, line: le.Line, end: le.EndSequence}
			if le.File != nil {
				row.file = le.File.Name
				if compDir != "" && !path.IsAbs(row.file) {
					row.file = path.Join(compDir, row.file)
				}
			}
			t.rows = append(t.rows, row)
		}
	}
	// At an address where one sequence ends and another begins, the end
	// row sorts first, so the lookup finds the new sequence's row.
	sort.SliceStable(t.rows, func(i, j int) bool {
		a, b := &t.rows[i], &t.rows[j]
		if a.addr != b.addr {
			return a.addr < b.addr
		}
		return a.end && !b.end
	})
	return t, nil
}

// Lookup returns the source file and line of the code at pc (an address
// of the ELF file, without a load bias); ok is false outside the tables.
func (t *LineTable) Lookup(pc uint64) (file string, line int, ok bool) {
	i := sort.Search(len(t.rows), func(i int) bool { return t.rows[i].addr > pc }) - 1
	if i < 0 || t.rows[i].end {
		return "", 0, false
	}
	return t.rows[i].file, t.rows[i].line, true
}

// Len is the number of rows.
func (t *LineTable) Len() int { return len(t.rows) }

// NewResolver resolves runtime addresses of a program loaded with bias:
// functions from sym (the ELF's symbols), files and lines from its DWARF
// line table (nil: none).
func NewResolver(sym Symbolizer, lines *LineTable, bias uint64) Resolver {
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
