package elf

import (
	"encoding/binary"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/mem"
)

func readTestdata(t testing.TB, name string) []byte {
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return data
}

func TestParseStaticExec(t *testing.T) {
	p, err := Parse("tiny.exec", readTestdata(t, "tiny.exec"))
	require.NoError(t, err)
	assert.False(t, p.IsPIE())
	assert.NotZero(t, p.Entry)
	s, ok := p.Lookup("_start")
	require.True(t, ok)
	assert.Equal(t, p.Entry, s.Value)
	h, ok := p.Lookup("helper")
	require.True(t, ok)
	assert.True(t, h.Func)
	got, off, ok := p.SymbolAt(h.Value + 1)
	require.True(t, ok)
	assert.Equal(t, "helper", got.Name)
	assert.Equal(t, uint64(1), off)

	m := mem.New()
	end, err := p.Load(m, 0)
	require.NoError(t, err)
	buf, ok := p.Lookup("buf")
	require.True(t, ok)
	assert.Equal(t, buf.Value+8192, end, "heap starts after .bss")
	msg, _ := p.Lookup("msg")
	str, err := m.ReadCString(msg.Value, 16)
	require.NoError(t, err)
	assert.Equal(t, "hi", str)
	text := m.PageFor(p.Entry, mem.Fetch)
	require.NotNil(t, text, "text is executable")
	assert.False(t, m.Write8(p.Entry, 0), "text is not writable")
	v, ok := m.Read64(buf.Value + 4096)
	assert.True(t, ok)
	assert.Zero(t, v, ".bss is zero")
}

func TestParseStaticPIE(t *testing.T) {
	p, err := Parse("tiny.pie", readTestdata(t, "tiny.pie"))
	require.NoError(t, err)
	assert.True(t, p.IsPIE())
	m := mem.New()
	const bias = 0x2aaaaaa000
	_, err = p.Load(m, bias)
	require.NoError(t, err)
	msg, _ := p.Lookup("msg")
	str, err := m.ReadCString(msg.Value+bias, 16)
	require.NoError(t, err)
	assert.Equal(t, "hi", str)
	assert.NotNil(t, m.PageFor(p.Entry+bias, mem.Fetch))
}

var update = flag.Bool("update", false, "rewrite testdata/corrupt from the table in corruptions")

// Program header numbers in tiny.exec (see gen.sh; readelf -l): 0 is
// RISCV_ATTRIBUTES, 1 the text PT_LOAD [0x10000, 0x10156) from offset 0,
// 2 the data PT_LOAD [0x11156, 0x13180) from offset 0x156, 3 a PT_NOTE.
// dynamic.elf's program header 1 is its PT_INTERP at file offset 0x238.
const tinyPhoff = 64

// phdrField returns the offset in tiny.exec of a field of program header i.
func phdrField(i, field int) int { return tinyPhoff + 56*i + field }

const (
	pType   = 0
	pOffset = 8
	pVaddr  = 16
	pFilesz = 32
	pMemsz  = 40
)

func put16(b []byte, off int, v uint16) []byte { binary.LittleEndian.PutUint16(b[off:], v); return b }
func put32(b []byte, off int, v uint32) []byte { binary.LittleEndian.PutUint32(b[off:], v); return b }
func put64(b []byte, off int, v uint64) []byte { binary.LittleEndian.PutUint64(b[off:], v); return b }

// corruptions is the ELF corruption corpus: each row damages tiny.exec (or
// dynamic.elf) one way and names the exact one-line error. The files are
// kept in testdata/corrupt (go test -run TestCorruptCorpus -update rewrites
// them) and seed FuzzParse.
var corruptions = []struct {
	desc, name string
	base       string
	mutate     func(b []byte) []byte
	want       string
}{
	{"bad magic", "bad-magic", "tiny.exec", func(b []byte) []byte { b[1] = 'X'; return b },
		"prog: not an ELF file (bad magic)"},
	{"header cut short", "truncated-header", "tiny.exec", func(b []byte) []byte { return b[:40] },
		"prog: truncated ELF header (40 bytes, need 64)"},
	{"32-bit class", "class32", "tiny.exec", func(b []byte) []byte { b[4] = 1; return b },
		"prog: not a RISC-V ELF64 executable (ELF class ELFCLASS32, e_machine=243)"},
	{"big endian", "big-endian", "tiny.exec", func(b []byte) []byte { b[5] = 2; return b },
		"prog: not a little-endian ELF file"},
	{"e_ident version 0", "ident-version", "tiny.exec", func(b []byte) []byte { b[6] = 0; return b },
		"prog: bad ELF identification version e_ident[EI_VERSION]=0 (want 1) (at file offset 0x6)"},
	{"x86-64 machine", "x86-64", "tiny.exec", func(b []byte) []byte { return put16(b, 18, 62) },
		"prog: not a RISC-V ELF64 executable (e_machine=62)"},
	{"relocatable object", "relocatable", "tiny.exec", func(b []byte) []byte { return put16(b, 16, 1) },
		"prog: not an executable (e_type=ET_REL)"},
	{"e_version 0", "e-version", "tiny.exec", func(b []byte) []byte { return put32(b, 20, 0) },
		"prog: bad e_version 0 (want 1) (at file offset 0x14)"},
	{"e_version 2", "e-version-2", "tiny.exec", func(b []byte) []byte { return put32(b, 20, 2) },
		"prog: bad e_version 2 (want 1) (at file offset 0x14)"},
	{"e_ehsize 0", "e-ehsize", "tiny.exec", func(b []byte) []byte { return put16(b, 52, 0) },
		"prog: bad e_ehsize 0 (want 64) (at file offset 0x34)"},
	{"e_phentsize 32", "e-phentsize", "tiny.exec", func(b []byte) []byte { return put16(b, 54, 32) },
		"prog: bad e_phentsize 32 (want 56) (at file offset 0x36)"},
	{"no program headers", "no-phdrs", "tiny.exec", func(b []byte) []byte { return put16(b, 56, 0) },
		"prog: no program headers"},
	{"more program headers than a page", "too-many-phdrs", "tiny.exec", func(b []byte) []byte { return put16(b, 56, 74) },
		"prog: too many program headers (e_phnum=74; at most 73) (at file offset 0x38)"},
	{"e_phoff wraps around", "phoff-overflow", "tiny.exec", func(b []byte) []byte { return put64(b, 32, 0xfffffffffffffff0) },
		"prog: bad program header table: e_phoff 0xfffffffffffffff0 + program header bytes 0xe0 overflows 64 bits (at file offset 0x20)"},
	{"e_phoff past the end", "phoff-past-end", "tiny.exec", func(b []byte) []byte { return put64(b, 32, 0x10000) },
		"prog: truncated file: program headers need bytes [0x10000, 0x100e0) of a 0x788-byte file"},
	{"program headers cut short", "truncated-phdrs", "tiny.exec", func(b []byte) []byte { return b[:tinyPhoff+56] },
		"prog: truncated file: program headers need bytes [0x40, 0x120) of a 0x78-byte file"},
	{"segment cut short", "truncated-segment", "tiny.exec", func(b []byte) []byte { return b[:tinyPhoff+4*56] },
		"prog: truncated file: PT_LOAD segment 1 needs bytes [0x0, 0x156) of a 0x120-byte file (at file offset 0x78)"},
	{"p_filesz > p_memsz", "filesz-gt-memsz", "tiny.exec", func(b []byte) []byte { return put64(b, phdrField(2, pFilesz), 1<<20) },
		"prog: PT_LOAD segment 2 has p_filesz 0x100000 > p_memsz 0x202a (at file offset 0xb0)"},
	{"segment outside user space", "segment-outside", "tiny.exec", func(b []byte) []byte { return put64(b, phdrField(2, pVaddr), 1<<62|0x156) },
		"prog: PT_LOAD segment 2 at 0x4000000000000156+0x202a is outside the 39-bit user address space (at file offset 0xb0)"},
	{"p_offset wraps around", "offset-overflow", "tiny.exec", func(b []byte) []byte { return put64(b, phdrField(2, pOffset), 0xfffffffffffffff0) },
		"prog: PT_LOAD segment 2: p_offset 0xfffffffffffffff0 + p_filesz 0x2a overflows 64 bits (at file offset 0xb0)"},
	{"p_filesz past the end", "filesz-past-end", "tiny.exec", func(b []byte) []byte {
		put64(b, phdrField(2, pMemsz), 0x10000)
		return put64(b, phdrField(2, pFilesz), 0x10000)
	}, "prog: truncated file: PT_LOAD segment 2 needs bytes [0x156, 0x10156) of a 0x788-byte file (at file offset 0xb0)"},
	{"p_offset and p_vaddr disagree within the page", "misaligned-offset", "tiny.exec", func(b []byte) []byte { return put64(b, phdrField(2, pOffset), 0x158) },
		"prog: PT_LOAD segment 2: p_offset 0x158 and p_vaddr 0x11156 differ modulo the page size 0x1000 (at file offset 0xb0)"},
	{"overlapping PT_LOAD segments", "overlap", "tiny.exec", func(b []byte) []byte { return put64(b, phdrField(1, pMemsz), 0x2000) },
		"prog: PT_LOAD segments 1 [0x10000, 0x12000) and 2 [0x11156, 0x13180) overlap (at file offset 0xb0)"},
	{"no PT_LOAD", "no-load", "tiny.exec", func(b []byte) []byte {
		put32(b, phdrField(1, pType), 0)
		return put32(b, phdrField(2, pType), 0)
	}, "prog: no loadable segments"},
	{"PT_INTERP not NUL-terminated", "interp-unterminated", "dynamic.elf", func(b []byte) []byte { b[0x238+0x20] = 'x'; return b },
		"prog: PT_INTERP (program header 1) is not NUL-terminated (at file offset 0x78)"},
	{"PT_INTERP of one byte", "interp-short", "dynamic.elf", func(b []byte) []byte { return put64(b, tinyPhoff+56+pFilesz, 1) },
		"prog: PT_INTERP (program header 1) has p_filesz 1; want 2 to 4096 bytes (at file offset 0x78)"},
	{"PT_INTERP past the end", "interp-past-end", "dynamic.elf", func(b []byte) []byte { return put64(b, tinyPhoff+56+pOffset, 0x100000) },
		"prog: truncated file: PT_INTERP (program header 1) needs bytes [0x100000, 0x100021) of a 0x17b8-byte file (at file offset 0x78)"},
	{"PT_INTERP empty path", "interp-empty", "dynamic.elf", func(b []byte) []byte { b[0x238] = 0; return b },
		"prog: PT_INTERP (program header 1) names an empty path (at file offset 0x78)"},
}

// TestCorruptCorpus checks each corrupted file in testdata/corrupt against
// its row: the bytes are the row's corruption of its base file, and
// Parse refuses it with exactly the row's message.
func TestCorruptCorpus(t *testing.T) {
	seen := map[string]bool{}
	for _, tc := range corruptions {
		t.Run(tc.desc, func(t *testing.T) {
			require.False(t, seen[tc.name], "duplicate corpus name")
			seen[tc.name] = true
			want := tc.mutate(append([]byte(nil), readTestdata(t, tc.base)...))
			path := filepath.Join("testdata", "corrupt", tc.name+".elf")
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.WriteFile(path, want, 0o644))
			}
			got, err := os.ReadFile(path)
			require.NoError(t, err, "run go test ./elf -run TestCorruptCorpus -update")
			require.Equal(t, want, got, "%s is stale: run go test ./elf -run TestCorruptCorpus -update", path)
			_, err = Parse("prog", got)
			require.Error(t, err)
			var fe *FormatError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, tc.want, err.Error())
		})
	}
	// Every file in the corpus has a row.
	files, err := filepath.Glob(filepath.Join("testdata", "corrupt", "*.elf"))
	require.NoError(t, err)
	for _, f := range files {
		assert.True(t, seen[strings.TrimSuffix(filepath.Base(f), ".elf")], "%s has no row in corruptions", f)
	}
}

func TestFormatErrors(t *testing.T) {
	tests := []struct {
		desc string
		data []byte
		want string
	}{
		{"empty", nil, "prog: not an ELF file (bad magic)"},
		{"shell script", []byte("#!/bin/sh\necho hi\n"), "prog: not an ELF file (bad magic)"},
		{"just the magic", []byte("\x7fELF"), "prog: truncated ELF header (4 bytes, need 64)"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := Parse("prog", tc.data)
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
		})
	}
}

func TestParseDynamic(t *testing.T) {
	p, err := Parse("dynamic.elf", readTestdata(t, "dynamic.elf"))
	require.NoError(t, err)
	assert.True(t, p.IsDynamic())
	assert.True(t, p.IsPIE())
	assert.Equal(t, "/lib/ld-linux-riscv64-lp64d.so.1", p.Interp)
	assert.Equal(t, uint64(0x40), p.PhdrVaddr, "the first PT_LOAD maps the headers at offset 0x40")
	assert.Equal(t, uint64(9), p.Phnum)
	lo, hi := p.Span()
	assert.Equal(t, uint64(0), lo)
	assert.Equal(t, uint64(0x3000), hi, "[0, 0x2008) rounded up to pages")
}

func TestParseStaticHasNoInterp(t *testing.T) {
	p, err := Parse("tiny.exec", readTestdata(t, "tiny.exec"))
	require.NoError(t, err)
	assert.False(t, p.IsDynamic())
	assert.Equal(t, uint64(0x10040), p.PhdrVaddr, "AT_PHDR: text maps offset 0x40 at 0x10040")
	lo, hi := p.Span()
	assert.Equal(t, uint64(0x10000), lo)
	assert.Equal(t, uint64(0x14000), hi)
}

func TestLoadFileMissing(t *testing.T) {
	_, err := LoadFile("testdata/does-not-exist")
	require.Error(t, err)
	assert.Equal(t, "testdata/does-not-exist: no such file or directory", err.Error())
}

// FuzzParse is seeded with every file in testdata and the corruption
// corpus in testdata/corrupt.
func FuzzParse(f *testing.F) {
	seeds, err := filepath.Glob(filepath.Join("testdata", "*.*"))
	require.NoError(f, err)
	corpus, err := filepath.Glob(filepath.Join("testdata", "corrupt", "*.elf"))
	require.NoError(f, err)
	require.NotEmpty(f, corpus)
	for _, name := range append(seeds, corpus...) {
		data, err := os.ReadFile(name)
		require.NoError(f, err)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("fuzz", data)
		if err != nil {
			assert.NotContains(t, err.Error(), "\n")
			return
		}
		m := mem.New()
		_, _ = p.Load(m, 0)
		p.SymbolAt(p.Entry)
	})
}

// LoadFile reads only regular files of at most MaxFileSize bytes, and
// refuses the rest before reading them (a device would never end, a FIFO
// would wait for a writer); LoadExec also wants execute permission, as
// execve does. The refusals execve shares match ErrNotExecutable.
func TestLoadFileKinds(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile(filepath.Join("testdata", "tiny.exec"))
	require.NoError(t, err)
	noExec := filepath.Join(dir, "noexec")
	require.NoError(t, os.WriteFile(noExec, good, 0o644))
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o755))
	huge := filepath.Join(dir, "huge")
	f, err := os.Create(huge)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(MaxFileSize+1)) // sparse
	require.NoError(t, f.Close())
	for _, tc := range []struct {
		desc, path string
		load       func(string) (*Program, error)
		err        string
		exec       bool // refused as execve refuses (EACCES)
	}{
		{"a device", "/dev/zero", LoadFile, "/dev/zero: not a regular file", true},
		{"a FIFO", fifo, LoadFile, fifo + ": not a regular file", true},
		{"a directory", dir, LoadFile, dir + ": is a directory", true},
		{"one byte over the bound", huge, LoadFile, huge + ": 1073741825 bytes, larger than any program rvsim loads (at most 1024 MiB)", false},
		{"no execute permission, loaded", noExec, LoadFile, "", false},
		{"no execute permission, executed", noExec, LoadExec, noExec + ": permission denied (no execute permission)", true},
		{"a device, executed", "/dev/zero", LoadExec, "/dev/zero: not a regular file", true},
		{"executable", filepath.Join("testdata", "tiny.exec"), LoadExec, "", false},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			p, err := tc.load(tc.path)
			if tc.err == "" {
				require.NoError(t, err)
				assert.NotEmpty(t, p.Segments)
				return
			}
			require.EqualError(t, err, tc.err)
			assert.Equal(t, tc.exec, errors.Is(err, ErrNotExecutable))
		})
	}
}
