// Package elf loads RISC-V ELF64 executables: Linux programs (ET_EXEC or
// ET_DYN, static or with a PT_INTERP dynamic linker, which is itself loaded
// with this package), and bare-metal programs that talk to the host
// through an HTIF tohost symbol. debug/elf parses the file; this package
// validates what a loader needs, with one-line errors, and never panics on
// malformed input.
package elf

import (
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"syscall"

	"github.com/rvsim/rvsim/mem"
)

// FormatError is a malformed or unsupported file. It prints as one line:
// "prog: not a RISC-V ELF64 executable (e_machine=62)".
type FormatError struct {
	File string
	Off  int64 // byte offset of the offending structure, -1 if none
	Msg  string
}

func (e *FormatError) Error() string {
	if e.Off >= 0 {
		return fmt.Sprintf("%s: %s (at file offset %#x)", e.File, e.Msg, e.Off)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Segment is one PT_LOAD segment, with its file bytes.
type Segment struct {
	Vaddr, Memsz uint64
	Data         []byte // Filesz bytes; the rest of Memsz is zero
	Perm         mem.Perm
	Off          int64 // file offset, for errors
}

// Symbol is a function or object symbol from .symtab.
type Symbol struct {
	Name        string
	Value, Size uint64
	Func        bool
}

// Program is a loadable executable.
type Program struct {
	Path  string
	Type  elf.Type // ET_EXEC or ET_DYN (PIE or static-pie)
	Entry uint64   // unrelocated entry point
	// Interp is the PT_INTERP path (the dynamic linker), "" for a static
	// program.
	Interp   string
	Segments []Segment
	// Program headers for the auxiliary vector.
	PhdrVaddr    uint64 // unrelocated address of the program headers in memory, 0 if no segment maps them
	Phent, Phnum uint64
	Symbols      []Symbol // sorted by Value
	// HTIF mailbox (bare-metal programs).
	ToHost, FromHost uint64
	HasToHost        bool
}

// IsDynamic reports whether the program names a dynamic linker.
func (p *Program) IsDynamic() bool { return p.Interp != "" }

// IsPIE reports whether the program must be loaded at a bias.
func (p *Program) IsPIE() bool { return p.Type == elf.ET_DYN }

// MaxFileSize bounds the size of a file LoadFile reads. LoadFile reads the
// whole file into memory (the segments are slices of it), so a bound keeps
// a huge or endless file from exhausting the host before it is parsed.
// 1 GiB is far above real programs (a riscv64 clang with its libraries
// linked in is near 100 MB; the benchmarks are under 1 MB) and within what
// a run of the simulator can hold beside the guest.
const MaxFileSize = 1 << 30

// ErrNotExecutable matches an ExecError: a file execve refuses with
// EACCES.
var ErrNotExecutable = errors.New("not executable")

// ExecError is a program that execve refuses with EACCES (a directory,
// a device or another file that is not a regular file, or one without
// execute permission). It prints as one line: "prog: permission denied".
type ExecError struct {
	Path, Msg string
}

func (e *ExecError) Error() string        { return e.Path + ": " + e.Msg }
func (e *ExecError) Is(target error) bool { return target == ErrNotExecutable }

// LoadFile reads and parses an executable: a regular file of at most
// MaxFileSize bytes, refused otherwise before it is read.
func LoadFile(path string) (*Program, error) {
	// O_NONBLOCK: opening a FIFO must not wait for a writer.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, unwrapPathError(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, unwrapPathError(err))
	}
	if err := regular(path, fi); err != nil {
		return nil, err
	}
	if fi.Size() > MaxFileSize {
		return nil, &FormatError{path, -1, fmt.Sprintf("%d bytes, larger than any program rvsim loads (at most %d MiB)", fi.Size(), MaxFileSize>>20)}
	}
	// Read at most one byte past the bound, should the file grow meanwhile.
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, unwrapPathError(err))
	}
	if len(data) > MaxFileSize {
		return nil, &FormatError{path, -1, fmt.Sprintf("larger than any program rvsim loads (at most %d MiB)", MaxFileSize>>20)}
	}
	return Parse(path, data)
}

// regular refuses what is not a regular file, as execve does.
func regular(path string, fi os.FileInfo) error {
	switch {
	case fi.IsDir():
		return &ExecError{path, "is a directory"}
	case !fi.Mode().IsRegular():
		return &ExecError{path, "not a regular file"}
	}
	return nil
}

// LoadExec is LoadFile for a file to execute (a program, a dynamic
// linker): it also refuses, as execve does with EACCES, a file without
// execute permission for this process.
func LoadExec(path string) (*Program, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, unwrapPathError(err))
	}
	if err := regular(path, fi); err != nil {
		return nil, err
	}
	if err := syscall.Access(path, 1); err != nil { // X_OK, with the rules execve uses (root needs one x bit)
		return nil, &ExecError{path, "permission denied (no execute permission)"}
	}
	return LoadFile(path)
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// Parse validates and parses an executable image. name labels errors.
// It refuses what Linux's binfmt_elf (and qemu-user's loader) refuse, one
// line per problem.
func Parse(name string, data []byte) (prog *Program, err error) {
	// debug/elf is hardened but not promised panic-free on hostile input;
	// a panic here must still be a one-line format error.
	defer func() {
		if r := recover(); r != nil {
			prog, err = nil, &FormatError{name, -1, fmt.Sprintf("malformed ELF file (%v)", r)}
		}
	}()
	if err := checkIdent(name, data); err != nil {
		return nil, err
	}
	machine := elf.Machine(leUint16(data[18:20]))
	if machine != elf.EM_RISCV {
		return nil, &FormatError{name, -1, fmt.Sprintf("not a RISC-V ELF64 executable (e_machine=%d)", uint16(machine))}
	}
	typ := elf.Type(leUint16(data[16:18]))
	if typ != elf.ET_EXEC && typ != elf.ET_DYN {
		return nil, &FormatError{name, -1, fmt.Sprintf("not an executable (e_type=%s)", typ)}
	}
	if v := leUint32(data[20:24]); v != uint32(elf.EV_CURRENT) {
		return nil, &FormatError{name, 20, fmt.Sprintf("bad e_version %d (want 1)", v)}
	}
	if n := leUint16(data[52:54]); n != ehdrSize {
		return nil, &FormatError{name, 52, fmt.Sprintf("bad e_ehsize %d (want %d)", n, ehdrSize)}
	}
	p := &Program{Path: name, Type: typ, Entry: leUint64(data[24:32])}
	if err := p.readSegments(name, data); err != nil {
		return nil, err
	}
	// Like the kernel, loading needs only the program headers; section
	// headers and symbols are optional extras for profiles.
	if f, err := elf.NewFile(bytes.NewReader(data)); err == nil {
		p.readSymbols(f)
		f.Close()
	}
	return p, nil
}

// checkIdent gives the common mistakes a precise message before debug/elf
// sees the file.
func checkIdent(name string, data []byte) error {
	if len(data) < 4 || !bytes.Equal(data[:4], []byte(elf.ELFMAG)) {
		return &FormatError{name, -1, "not an ELF file (bad magic)"}
	}
	if len(data) < ehdrSize {
		return &FormatError{name, -1, fmt.Sprintf("truncated ELF header (%d bytes, need %d)", len(data), ehdrSize)}
	}
	if elf.Class(data[elf.EI_CLASS]) != elf.ELFCLASS64 {
		machine := uint16(data[18]) | uint16(data[19])<<8
		return &FormatError{name, -1, fmt.Sprintf("not a RISC-V ELF64 executable (ELF class %s, e_machine=%d)", elf.Class(data[elf.EI_CLASS]), machine)}
	}
	if elf.Data(data[elf.EI_DATA]) != elf.ELFDATA2LSB {
		return &FormatError{name, -1, "not a little-endian ELF file"}
	}
	if v := data[elf.EI_VERSION]; v != byte(elf.EV_CURRENT) {
		return &FormatError{name, int64(elf.EI_VERSION), fmt.Sprintf("bad ELF identification version e_ident[EI_VERSION]=%d (want 1)", v)}
	}
	return nil
}

// maxAddr bounds segment addresses to the 39-bit user space we simulate.
const maxAddr = 1 << 38

// Header and program header layout (ELF64).
const (
	ehdrSize = 64
	phdrSize = 56
	// maxPhdrBytes is the most program-header bytes Linux reads
	// (load_elf_phdrs: ELF_MIN_ALIGN, one page).
	maxPhdrBytes = 4096
	// pathMax bounds the PT_INTERP path, NUL included (Linux: PATH_MAX).
	pathMax = 4096
)

// overflows reports whether off+n wraps around, and says so for an error
// message (rather than printing a wrapped-around range end).
func overflows(offName string, off uint64, nName string, n uint64) (string, bool) {
	if off+n >= off {
		return "", false
	}
	return fmt.Sprintf("%s %#x + %s %#x overflows 64 bits", offName, off, nName, n), true
}

func (p *Program) readSegments(name string, data []byte) error {
	phoff, phent, phnum := leUint64(data[32:40]), uint64(leUint16(data[54:56])), uint64(leUint16(data[56:58]))
	size := uint64(len(data))
	if phnum == 0 {
		return &FormatError{name, -1, "no program headers"}
	}
	if phent != phdrSize {
		return &FormatError{name, 54, fmt.Sprintf("bad e_phentsize %d (want %d)", phent, phdrSize)}
	}
	if phnum*phent > maxPhdrBytes {
		return &FormatError{name, 56, fmt.Sprintf("too many program headers (e_phnum=%d; at most %d)", phnum, maxPhdrBytes/phdrSize)}
	}
	if msg, bad := overflows("e_phoff", phoff, "program header bytes", phnum*phent); bad {
		return &FormatError{name, 32, "bad program header table: " + msg}
	}
	if phoff > size || phnum*phent > size-phoff {
		return &FormatError{name, -1, fmt.Sprintf("truncated file: program headers need bytes [%#x, %#x) of a %#x-byte file", phoff, phoff+phnum*phent, size)}
	}
	loads := map[int]uint64{} // segment index -> program header number, for messages
	interpSeen := false
	for i := uint64(0); i < phnum; i++ {
		off := phoff + i*phent
		h := data[off : off+phent]
		typ, flags := elf.ProgType(leUint32(h[0:4])), elf.ProgFlag(leUint32(h[4:8]))
		pOff, vaddr, filesz, memsz := leUint64(h[8:16]), leUint64(h[16:24]), leUint64(h[32:40]), leUint64(h[40:48])
		switch typ {
		case elf.PT_INTERP:
			if interpSeen {
				continue // the kernel uses the first one
			}
			interpSeen = true
			s, err := readInterp(name, data, i, int64(off), pOff, filesz)
			if err != nil {
				return err
			}
			p.Interp = s
		case elf.PT_LOAD:
			if filesz > memsz {
				return &FormatError{name, int64(off), fmt.Sprintf("PT_LOAD segment %d has p_filesz %#x > p_memsz %#x", i, filesz, memsz)}
			}
			if vaddr >= maxAddr || memsz >= maxAddr || vaddr+memsz > maxAddr {
				return &FormatError{name, int64(off), fmt.Sprintf("PT_LOAD segment %d at %#x+%#x is outside the 39-bit user address space", i, vaddr, memsz)}
			}
			if msg, bad := overflows("p_offset", pOff, "p_filesz", filesz); bad {
				return &FormatError{name, int64(off), fmt.Sprintf("PT_LOAD segment %d: %s", i, msg)}
			}
			if pOff > size || filesz > size-pOff {
				return &FormatError{name, int64(off), fmt.Sprintf("truncated file: PT_LOAD segment %d needs bytes [%#x, %#x) of a %#x-byte file", i, pOff, pOff+filesz, size)}
			}
			// The kernel maps file bytes page by page, so the file offset
			// and the address must agree within a page (else mmap fails
			// with EINVAL and exec with it). The ELF spec asks for
			// agreement modulo p_align; Linux needs only the page.
			if filesz > 0 && pOff&mem.PageMask != vaddr&mem.PageMask {
				return &FormatError{name, int64(off), fmt.Sprintf("PT_LOAD segment %d: p_offset %#x and p_vaddr %#x differ modulo the page size %#x", i, pOff, vaddr, mem.PageSize)}
			}
			if memsz == 0 {
				continue
			}
			for j, s := range p.Segments {
				if vaddr < s.Vaddr+s.Memsz && s.Vaddr < vaddr+memsz {
					return &FormatError{name, int64(off), fmt.Sprintf("PT_LOAD segments %d [%#x, %#x) and %d [%#x, %#x) overlap",
						loads[j], s.Vaddr, s.Vaddr+s.Memsz, i, vaddr, vaddr+memsz)}
				}
			}
			var perm mem.Perm
			if flags&elf.PF_R != 0 {
				perm |= mem.R
			}
			if flags&elf.PF_W != 0 {
				perm |= mem.W
			}
			if flags&elf.PF_X != 0 {
				perm |= mem.X
			}
			loads[len(p.Segments)] = i
			p.Segments = append(p.Segments, Segment{
				Vaddr: vaddr, Memsz: memsz, Perm: perm, Off: int64(pOff),
				Data: data[pOff : pOff+filesz],
			})
			// AT_PHDR: the segment whose file bytes hold the program
			// headers maps them (load_elf_binary's rule).
			if pOff <= phoff && phoff < pOff+filesz {
				p.PhdrVaddr = phoff - pOff + vaddr
			}
		}
	}
	if len(p.Segments) == 0 {
		return &FormatError{name, -1, "no loadable segments"}
	}
	p.Phent, p.Phnum = phent, phnum
	return nil
}

// readInterp reads the PT_INTERP path: 2 to PATH_MAX bytes ending in NUL.
func readInterp(name string, data []byte, i uint64, hdrOff int64, off, n uint64) (string, error) {
	if n < 2 || n > pathMax {
		return "", &FormatError{name, hdrOff, fmt.Sprintf("PT_INTERP (program header %d) has p_filesz %d; want 2 to %d bytes", i, n, pathMax)}
	}
	if msg, bad := overflows("p_offset", off, "p_filesz", n); bad {
		return "", &FormatError{name, hdrOff, fmt.Sprintf("PT_INTERP (program header %d): %s", i, msg)}
	}
	if off > uint64(len(data)) || n > uint64(len(data))-off {
		return "", &FormatError{name, hdrOff, fmt.Sprintf("truncated file: PT_INTERP (program header %d) needs bytes [%#x, %#x) of a %#x-byte file", i, off, off+n, len(data))}
	}
	s := data[off : off+n]
	if s[n-1] != 0 {
		return "", &FormatError{name, hdrOff, fmt.Sprintf("PT_INTERP (program header %d) is not NUL-terminated", i)}
	}
	path := string(s[:n-1])
	if k := strings.IndexByte(path, 0); k >= 0 {
		path = path[:k] // the kernel opens the C string
	}
	if path == "" {
		return "", &FormatError{name, hdrOff, fmt.Sprintf("PT_INTERP (program header %d) names an empty path", i)}
	}
	return path, nil
}

// Span returns the page-aligned range of addresses the program's segments
// occupy before biasing (Linux's total_mapping_size).
func (p *Program) Span() (lo, hi uint64) {
	lo = ^uint64(0)
	for _, s := range p.Segments {
		lo = min(lo, s.Vaddr&^mem.PageMask)
		hi = max(hi, (s.Vaddr+s.Memsz+mem.PageMask)&^mem.PageMask)
	}
	return lo, hi
}

func leUint32(b []byte) uint32 { return uint32(leUint16(b[0:2])) | uint32(leUint16(b[2:4]))<<16 }
func leUint16(b []byte) uint16 { return uint16(b[0]) | uint16(b[1])<<8 }
func leUint64(b []byte) uint64 {
	return uint64(leUint16(b[0:2])) | uint64(leUint16(b[2:4]))<<16 | uint64(leUint16(b[4:6]))<<32 | uint64(leUint16(b[6:8]))<<48
}

func (p *Program) readSymbols(f *elf.File) {
	syms, err := f.Symbols()
	if err != nil {
		return // stripped: profiles fall back to addresses
	}
	for _, s := range syms {
		t := elf.ST_TYPE(s.Info)
		switch s.Name {
		case "tohost":
			p.ToHost, p.HasToHost = s.Value, true
		case "fromhost":
			p.FromHost = s.Value
		}
		if s.Name == "" || s.Section == elf.SHN_UNDEF || (t != elf.STT_FUNC && t != elf.STT_OBJECT && t != elf.STT_NOTYPE) {
			continue
		}
		if t == elf.STT_NOTYPE && (s.Name[0] == '.' || s.Name[0] == '$') {
			continue // local labels and mapping symbols
		}
		p.Symbols = append(p.Symbols, Symbol{Name: s.Name, Value: s.Value, Size: s.Size, Func: t == elf.STT_FUNC})
	}
	sort.SliceStable(p.Symbols, func(i, j int) bool { return p.Symbols[i].Value < p.Symbols[j].Value })
}

// Load maps the program's segments into m at load bias bias (0 for
// ET_EXEC) and returns the bias-adjusted end of the highest segment, where
// the heap begins.
func (p *Program) Load(m *mem.Memory, bias uint64) (end uint64, err error) {
	// Segments may share a page (text end and data start): map the union
	// of their page ranges with the union of their permissions, as the
	// kernel's page-granular mappings effectively do, then copy the bytes.
	type span struct {
		lo, hi uint64
		perm   mem.Perm
		off    uint64 // file offset of lo (shown in /proc/self/maps)
	}
	var spans []span
	for _, s := range p.Segments {
		start := s.Vaddr + bias
		sp := span{start &^ mem.PageMask, (start + s.Memsz + mem.PageMask) &^ mem.PageMask, s.Perm, uint64(s.Off) &^ mem.PageMask}
		for i := 0; i < len(spans); {
			if o := spans[i]; o.lo < sp.hi && sp.lo < o.hi {
				off := sp.off
				if o.lo < sp.lo {
					off = o.off
				}
				sp = span{min(o.lo, sp.lo), max(o.hi, sp.hi), o.perm | sp.perm, off}
				spans = append(spans[:i], spans[i+1:]...)
				i = 0 // the grown span may now meet an earlier one
				continue
			}
			i++
		}
		spans = append(spans, sp)
		end = max(end, start+s.Memsz)
	}
	for _, sp := range spans {
		if err := m.MapFile(sp.lo, sp.hi-sp.lo, sp.perm, p.Path, sp.off); err != nil {
			return 0, err
		}
	}
	for _, s := range p.Segments {
		if err := m.Poke(s.Vaddr+bias, s.Data); err != nil {
			return 0, err
		}
	}
	return end, nil
}

// SymbolAt returns the symbol containing addr (function symbols first),
// and addr's offset into it.
func (p *Program) SymbolAt(addr uint64) (Symbol, uint64, bool) {
	i := sort.Search(len(p.Symbols), func(i int) bool { return p.Symbols[i].Value > addr })
	var best *Symbol
	for j := i - 1; j >= 0 && j >= i-8; j-- {
		s := &p.Symbols[j]
		if addr < s.Value+max(s.Size, 1) && (best == nil || (s.Func && !best.Func)) {
			best = s
		}
	}
	if best == nil {
		return Symbol{}, 0, false
	}
	return *best, addr - best.Value, true
}

// Lookup returns the symbol with the given name.
func (p *Program) Lookup(name string) (Symbol, bool) {
	for _, s := range p.Symbols {
		if s.Name == name {
			return s, true
		}
	}
	return Symbol{}, false
}
