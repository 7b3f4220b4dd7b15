package syscalls

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rvsim/rvsim/mem"
)

// Image describes the loaded program for the auxiliary vector.
type Image struct {
	Entry    uint64 // AT_ENTRY: the program's entry point (load bias applied)
	Phdr     uint64 // AT_PHDR: address of the program headers in memory
	Phent    uint64 // AT_PHENT: size of one program header (0 = 56)
	Phnum    uint64 // AT_PHNUM
	Base     uint64 // AT_BASE: the ELF interpreter's load address; 0 for static programs, PIE or not
	BrkStart uint64 // end of the highest loaded segment (bss); brk starts at it, page aligned up
	// ExecFn is AT_EXECFN, the path execve was given ("": the program's
	// guest path, Config.ExePath, or argv[0]).
	ExecFn string
}

// Auxiliary vector types (linux/auxvec.h).
const (
	atNull   = 0
	atPhdr   = 3
	atPhent  = 4
	atPhnum  = 5
	atPagesz = 6
	atBase   = 7
	atFlags  = 8
	atEntry  = 9
	atUID    = 11
	atEUID   = 12
	atGID    = 13
	atEGID   = 14
	atHwcap  = 16
	atClktck = 17
	atSecure = 23
	atRandom = 25
	atExecfn = 31
)

// HWCAP is the AT_HWCAP value: the single-letter extensions I, M, A, F, D, C
// as bits 1<<(letter-'A') (arch/riscv/include/uapi/asm/hwcap.h).
const HWCAP = 1<<('I'-'A') | 1<<('M'-'A') | 1<<('A'-'A') | 1<<('F'-'A') | 1<<('D'-'A') | 1<<('C'-'A')

// atRandomSeed seeds the 16 AT_RANDOM bytes (glibc's stack protector and
// pointer guard), separately from getrandom's stream.
const atRandomSeed = 0x4154_5f52_414e_444d // "AT_RANDM"

// SetupProcess maps the stack and builds the initial process stack as
// Linux's create_elf_tables does, and sets the program break. From the top
// of the stack down: an 8-byte NULL, the exec file name, the environment
// strings, the argument strings; then, 16-byte aligned, the 16 AT_RANDOM
// bytes; below them (sp 16-byte aligned) argc, argv[], NULL, envp[], NULL,
// and the auxv pairs ending with AT_NULL. It returns sp, which points at
// argc. The stack's bytes are listed by LastWrites.
func (k *Kernel) SetupProcess(img Image, argv, envp []string) (sp uint64, err error) {
	k.writes = k.writes[:0]
	execfn := img.ExecFn
	if execfn == "" {
		execfn = k.cfg.ExePath
	}
	if execfn == "" && len(argv) > 0 {
		execfn = argv[0]
		k.setExe(execfn)
	}
	for _, s := range append(append([]string{execfn}, argv...), envp...) {
		if strings.IndexByte(s, 0) >= 0 {
			return 0, fmt.Errorf("syscalls: argument or environment string %q contains a NUL byte", s)
		}
	}
	if argSize(argv, envp)+len(execfn)+1 > StackSize/4 { // the kernel's ARG_MAX rule: a quarter of the stack limit
		return 0, errors.New("syscalls: argument list too long")
	}
	if err := k.mem.Map(StackBase, StackSize, mem.RW, stackName); err != nil {
		return 0, fmt.Errorf("syscalls: mapping the stack: %w", err)
	}

	// Strings, copied downwards from the top as copy_strings does, so
	// that in memory they read argv..., envp..., execfn.
	p := uint64(StackTop - 8)
	put := func(s string) (uint64, error) {
		p -= uint64(len(s) + 1)
		if e := k.writeMem(p, append([]byte(s), 0)); e != 0 {
			return 0, fmt.Errorf("syscalls: writing the initial stack at %#x: %v", p, e)
		}
		return p, nil
	}
	execAddr, err := put(execfn)
	if err != nil {
		return 0, err
	}
	k.envEnd = execAddr
	envAddrs := make([]uint64, len(envp))
	for i := len(envp) - 1; i >= 0; i-- {
		if envAddrs[i], err = put(envp[i]); err != nil {
			return 0, err
		}
	}
	k.envStart = p
	argAddrs := make([]uint64, len(argv))
	for i := len(argv) - 1; i >= 0; i-- {
		if argAddrs[i], err = put(argv[i]); err != nil {
			return 0, err
		}
	}
	k.argStart, k.argEnd = p, k.envStart

	p &^= 15 // arch_align_stack, without randomisation
	p -= 16
	rnd := make([]byte, 16)
	(&splitMix{state: atRandomSeed}).fill(rnd)
	if e := k.writeMem(p, rnd); e != 0 {
		return 0, fmt.Errorf("syscalls: writing AT_RANDOM: %v", e)
	}

	phent := img.Phent
	if phent == 0 {
		phent = 56 // sizeof(Elf64_Phdr)
	}
	auxv := []uint64{
		atHwcap, HWCAP,
		atPagesz, PageSize,
		atClktck, 100,
		atPhdr, img.Phdr,
		atPhent, phent,
		atPhnum, img.Phnum,
		atBase, img.Base,
		atFlags, 0,
		atEntry, img.Entry,
		atUID, uint64(k.cred.ruid),
		atEUID, uint64(k.cred.euid),
		atGID, uint64(k.cred.rgid),
		atEGID, uint64(k.cred.egid),
		atSecure, 0,
		atRandom, p,
		atExecfn, execAddr,
		atNull, 0,
	}
	items := 1 + len(argv) + 1 + len(envp) + 1
	sp = (p - uint64(len(auxv)*8) - uint64(items*8)) &^ 15

	words := make([]uint64, 0, items+len(auxv))
	words = append(words, uint64(len(argv)))
	words = append(words, argAddrs...)
	words = append(words, 0)
	words = append(words, envAddrs...)
	words = append(words, 0)
	words = append(words, auxv...)
	b := make([]byte, 8*len(words))
	for i, w := range words {
		put64(b, 8*i, w)
	}
	if e := k.writeMem(sp, b); e != 0 {
		return 0, fmt.Errorf("syscalls: writing the initial stack at %#x: %v", sp, e)
	}

	k.argv, k.auxv, k.stackStart = append([]string(nil), argv...), auxv, sp
	k.brkStart = pageUp(img.BrkStart)
	k.brk = k.brkStart
	return sp, nil
}
