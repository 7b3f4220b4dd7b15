package elf

import (
	"encoding/binary"
	"os"
	"path/filepath"
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

// corrupt returns a copy of data with f applied.
func corrupt(data []byte, f func(b []byte) []byte) []byte {
	return f(append([]byte(nil), data...))
}

func TestFormatErrors(t *testing.T) {
	good := readTestdata(t, "tiny.exec")
	phoff := binary.LittleEndian.Uint64(good[32:])
	tests := []struct {
		desc string
		data []byte
		want string
	}{
		{"empty", nil, "prog: not an ELF file (bad magic)"},
		{"text file", []byte("#!/bin/sh\necho hi\n"), "prog: not an ELF file (bad magic)"},
		{"truncated header", good[:40], "prog: truncated ELF header (40 bytes, need 64)"},
		{"x86-64", corrupt(good, func(b []byte) []byte { b[18] = 62; return b }), "prog: not a RISC-V ELF64 executable (e_machine=62)"},
		{"32-bit class", corrupt(good, func(b []byte) []byte { b[4] = 1; return b }), "prog: not a RISC-V ELF64 executable (ELF class ELFCLASS32, e_machine=243)"},
		{"big endian", corrupt(good, func(b []byte) []byte { b[5] = 2; return b }), "prog: not a little-endian ELF file"},
		{"relocatable", corrupt(good, func(b []byte) []byte { b[16] = 1; return b }), "prog: not an executable (e_type=ET_REL)"},
		{"truncated segment", good[:phoff+4*56], "prog: truncated file: PT_LOAD segment 1 needs bytes [0x0, 0x156) of a 0x120-byte file"},
		{"truncated program headers", good[:phoff+56], "prog: truncated file: program headers need bytes [0x40, 0x120) of a 0x78-byte file"},
		{"filesz > memsz", corrupt(good, func(b []byte) []byte {
			binary.LittleEndian.PutUint64(b[phoff+56+32:], 1<<20) // p_filesz of phdr 1
			return b
		}), "prog: PT_LOAD segment 1 has p_filesz 0x100000 > p_memsz"},
		{"segment outside user space", corrupt(good, func(b []byte) []byte {
			binary.LittleEndian.PutUint64(b[phoff+56+16:], 1<<62) // p_vaddr of phdr 1
			return b
		}), "prog: PT_LOAD segment 1 at 0x4000000000000000"},
		{"dynamically linked", readTestdata(t, "dynamic.elf"), "prog: dynamically linked programs are not supported (has PT_INTERP); link with -static"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := Parse("prog", tc.data)
			require.Error(t, err)
			var fe *FormatError
			require.ErrorAs(t, err, &fe)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotContains(t, err.Error(), "\n", "errors are one line")
		})
	}
}

func TestLoadFileMissing(t *testing.T) {
	_, err := LoadFile("testdata/does-not-exist")
	require.Error(t, err)
	assert.Equal(t, "testdata/does-not-exist: no such file or directory", err.Error())
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"tiny.exec", "tiny.pie", "dynamic.elf"} {
		f.Add(readTestdata(f, name))
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
