package elf

import (
	"debug/dwarf"
	"debug/elf"
	"fmt"
	"path"
	"sort"
)

// LineTable maps code addresses to source lines: the rows of the DWARF
// line tables (.debug_line) of every compilation unit, by address.
type LineTable struct {
	rows []lineRow
}

type lineRow struct {
	addr uint64
	file string
	line int
	end  bool // the first address after a sequence
}

// ReadLineTable reads the line tables of the ELF file name. A file
// without DWARF gives an empty table (every lookup fails); a malformed one
// gives an error.
func ReadLineTable(name string) (t *LineTable, err error) {
	defer func() {
		if r := recover(); r != nil {
			t, err = nil, &FormatError{name, -1, fmt.Sprintf("malformed DWARF (%v)", r)}
		}
	}()
	f, err := elf.Open(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, unwrapPathError(err))
	}
	defer f.Close()
	t = &LineTable{}
	if f.Section(".debug_line") == nil {
		return t, nil
	}
	d, err := f.DWARF()
	if err != nil {
		return nil, &FormatError{name, -1, fmt.Sprintf("DWARF: %v", err)}
	}
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil {
			return nil, &FormatError{name, -1, fmt.Sprintf("DWARF: %v", err)}
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
			return nil, &FormatError{name, -1, fmt.Sprintf("DWARF line table: %v", err)}
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
				break // io.EOF, or a damaged table: keep what was read
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
	// By address; at one address a sequence's end sorts before the next
	// sequence's first row, and otherwise the last row of the address wins.
	sort.SliceStable(t.rows, func(i, j int) bool {
		a, b := &t.rows[i], &t.rows[j]
		if a.addr != b.addr {
			return a.addr < b.addr
		}
		return a.end && !b.end
	})
	return t, nil
}

// Lookup returns the source file (as the compiler named it, joined to
// its compilation directory) and line of the code at addr (an address of
// the ELF file, without a load bias), or false where no line table
// covers it.
func (t *LineTable) Lookup(addr uint64) (file string, line int, ok bool) {
	i := sort.Search(len(t.rows), func(i int) bool { return t.rows[i].addr > addr }) - 1
	if i < 0 || t.rows[i].end || t.rows[i].line == 0 {
		return "", 0, false
	}
	return t.rows[i].file, t.rows[i].line, true
}

// Len is the number of rows.
func (t *LineTable) Len() int { return len(t.rows) }
