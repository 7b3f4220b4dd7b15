package difftest

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/rvsim/rvsim/mem"
)

// LibraryName is the shared library the Unicorn oracle loads.
const LibraryName = "libunicorn.so.2"

// MissingLibraryError says the oracle's library could not be loaded. Its
// message is one line telling the user how to install it.
type MissingLibraryError struct {
	Err error // the dynamic loader's complaint
}

func (e *MissingLibraryError) Error() string {
	return "difftest needs " + LibraryName + " (Debian package libunicorn2): run `make setup` to install it"
}

func (e *MissingLibraryError) Unwrap() error { return e.Err }

// UnicornError is a failed Unicorn call.
type UnicornError struct {
	Call string
	Code uintptr // uc_err
	Msg  string  // uc_strerror
}

func (e *UnicornError) Error() string {
	return fmt.Sprintf("unicorn: %s: %s (uc_err %d)", e.Call, e.Msg, e.Code)
}

// Constants from unicorn.h and riscv.h (Unicorn 2.0.1).
const (
	ucArchRISCV   = 8
	ucModeRISCV64 = 1 << 3
	ucHookIntr    = 1 << 0
	ucHookCode    = 1 << 2

	ucErrOK            = 0
	ucErrFetchUnmapped = 8  // UC_ERR_FETCH_UNMAPPED
	ucErrFetchProt     = 14 // UC_ERR_FETCH_PROT

	// uc_ctl control UC_CTL_WRITE(UC_CTL_TB_REMOVE_CACHE, 2).
	ucCtlTBRemoveCache = 9 | 2<<26 | 1<<30

	ucRegX0      = 1 // UC_RISCV_REG_X0; X1..X31 follow
	ucRegFflags  = 41
	ucRegFrm     = 42
	ucRegFcsr    = 43
	ucRegMstatus = 116
	ucRegMisa    = 117
	ucRegMepc    = 128
	ucRegMcause  = 129
	ucRegF0      = 158 // F1..F31 follow
	ucRegPC      = 190
)

// lib holds the resolved entry points of libunicorn.
type lib struct {
	open, close, memMap, memUnmap, memProtect, memRead, memWrite uintptr
	regRead, regWrite, regReadBatch, regWriteBatch               uintptr
	emuStart, emuStop, hookAdd, strerror, version                uintptr
	ctl, memRegions, free                                        uintptr
	intrCallback, codeCallback                                   uintptr
}

var (
	libOnce sync.Once
	theLib  *lib
	libErr  error
)

// loadLib opens libunicorn once per process.
func loadLib() (*lib, error) {
	libOnce.Do(func() {
		h, err := purego.Dlopen(LibraryName, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			libErr = &MissingLibraryError{Err: err}
			return
		}
		l := &lib{}
		for _, s := range []struct {
			name string
			p    *uintptr
		}{
			{"uc_open", &l.open}, {"uc_close", &l.close}, {"uc_mem_map", &l.memMap},
			{"uc_mem_unmap", &l.memUnmap}, {"uc_mem_protect", &l.memProtect},
			{"uc_mem_read", &l.memRead}, {"uc_mem_write", &l.memWrite},
			{"uc_reg_read", &l.regRead}, {"uc_reg_write", &l.regWrite},
			{"uc_reg_read_batch", &l.regReadBatch}, {"uc_reg_write_batch", &l.regWriteBatch},
			{"uc_emu_start", &l.emuStart}, {"uc_emu_stop", &l.emuStop},
			{"uc_hook_add", &l.hookAdd}, {"uc_strerror", &l.strerror}, {"uc_version", &l.version},
			{"uc_ctl", &l.ctl}, {"uc_mem_regions", &l.memRegions}, {"uc_free", &l.free},
		} {
			if *s.p, err = purego.Dlsym(h, s.name); err != nil {
				libErr = &MissingLibraryError{Err: err}
				return
			}
		}
		// One callback for every engine (purego callbacks are never freed):
		// user_data names the engine.
		l.intrCallback = purego.NewCallback(intrHook)
		l.codeCallback = purego.NewCallback(codeHook)
		theLib = l
	})
	return theLib, libErr
}

// Available reports whether the Unicorn oracle can be loaded; the error is
// a *MissingLibraryError if not.
func Available() error {
	_, err := loadLib()
	return err
}

// UnicornVersion returns the loaded library's version, e.g. "2.0.1".
func UnicornVersion() (string, error) {
	l, err := loadLib()
	if err != nil {
		return "", err
	}
	// uc_version returns major<<24 | minor<<16 | patch<<8 | extra.
	v, _, _ := purego.SyscallN(l.version, 0, 0)
	return fmt.Sprintf("%d.%d.%d", v>>24&0xff, v>>16&0xff, v>>8&0xff), nil
}

// lifecycle keeps uc_open and uc_close from running while any engine
// executes guest code: with two engines on two threads, closing one
// while the other ran crashed the other in its translated code (SEGV on
// an instruction fetch in the code buffer), with Unicorn 2.0.1.
var lifecycle sync.RWMutex

// engines maps a user_data token to its engine for the interrupt hook.
var engines = struct {
	sync.Mutex
	next uintptr
	m    map[uintptr]*Unicorn
}{m: map[uintptr]*Unicorn{}}

// intrHook is Unicorn's UC_HOOK_INTR callback: an exception (ecall,
// illegal instruction, ...) was raised. It records the cause and stops
// emulation; the pc stays at the instruction.
func intrHook(uc uintptr, intno uint32, user uintptr) {
	engines.Lock()
	u := engines.m[user]
	engines.Unlock()
	if u != nil {
		u.trapped, u.cause = true, uint64(intno)
	}
	purego.SyscallN(theLib.emuStop, uc)
}

// codeHook is Unicorn's UC_HOOK_CODE callback, called before every
// instruction: it hands the pc to the running Run's callback and stops
// emulation (before the instruction) when that says so.
func codeHook(uc uintptr, addr uint64, size uint32, user uintptr) {
	engines.Lock()
	u := engines.m[user]
	engines.Unlock()
	if u == nil || u.before == nil || u.stopped {
		return
	}
	if !u.callBefore(addr) {
		u.stopped = true
		purego.SyscallN(theLib.emuStop, uc)
	}
}

// callBefore runs the Run callback; a panic is kept for Run to re-raise
// (it must not unwind through Unicorn's C frames).
func (u *Unicorn) callBefore(addr uint64) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			u.panicked, ok = r, false
		}
	}()
	return u.before(addr)
}

// stateRegs is the order of the registers in a State transfer.
const stateRegs = 31 + 32 + 2 // x1..x31, f0..f31, pc, fcsr

// Unicorn is the Oracle backed by libunicorn's RISCV64 engine.
type Unicorn struct {
	l       *lib
	uc      uintptr
	token   uintptr
	trapped bool
	cause   uint64

	// Bulk register transfer: ids and pointers into vals, pinned so that
	// C may hold their addresses.
	ids     *[stateRegs]int32
	vals    *[stateRegs]uint64
	ptrs    *[stateRegs]uintptr
	pinner  runtime.Pinner
	scratch *[8]uint64

	resets int // Resets since the engine was opened

	// Run's callback, and whether it asked to stop.
	before   func(pc uint64) bool
	stopped  bool
	panicked any
}

var _ Oracle = (*Unicorn)(nil)

// NewUnicorn opens a RISCV64 engine with the FPU enabled (mstatus.FS =
// Dirty). It returns a *MissingLibraryError if libunicorn is not
// installed.
func NewUnicorn() (*Unicorn, error) {
	l, err := loadLib()
	if err != nil {
		return nil, err
	}
	u := &Unicorn{l: l, ids: new([stateRegs]int32), vals: new([stateRegs]uint64),
		ptrs: new([stateRegs]uintptr), scratch: new([8]uint64)}
	i := 0
	for r := 1; r < 32; r++ {
		u.ids[i] = int32(ucRegX0 + r)
		i++
	}
	for r := 0; r < 32; r++ {
		u.ids[i] = int32(ucRegF0 + r)
		i++
	}
	u.ids[i], u.ids[i+1] = ucRegPC, ucRegFcsr
	u.pinner.Pin(u.ids)
	u.pinner.Pin(u.vals)
	u.pinner.Pin(u.ptrs)
	u.pinner.Pin(u.scratch)
	for i := range u.ptrs {
		u.ptrs[i] = uintptr(unsafe.Pointer(&u.vals[i]))
	}
	engines.Lock()
	engines.next++
	u.token = engines.next
	engines.m[u.token] = u
	engines.Unlock()
	if err := u.open(); err != nil {
		engines.Lock()
		delete(engines.m, u.token)
		engines.Unlock()
		u.pinner.Unpin()
		return nil, err
	}
	return u, nil
}

// open creates the engine with its hooks and the FPU on.
func (u *Unicorn) open() error {
	l := u.l
	lifecycle.Lock()
	err := u.call("uc_open", l.open, ucArchRISCV, ucModeRISCV64, uintptr(unsafe.Pointer(&u.scratch[0])))
	lifecycle.Unlock()
	if err != nil {
		return err
	}
	u.uc = uintptr(u.scratch[0])
	u.resets = 0
	// Out-parameters live in pinned memory: u.call's uintptr arguments do
	// not keep Go stack variables in place.
	hh := uintptr(unsafe.Pointer(&u.scratch[1]))
	err = u.call("uc_hook_add", l.hookAdd, u.uc, hh, ucHookIntr, l.intrCallback, u.token, 1, 0)
	if err == nil {
		// The code hook covers all addresses (begin > end) and is
		// installed before anything is translated, so every block calls it.
		err = u.call("uc_hook_add", l.hookAdd, u.uc, hh, ucHookCode, l.codeCallback, u.token, 1, 0)
	}
	if err == nil {
		// Unicorn runs the hart in M-mode; turn the FPU on (FS = Dirty) as
		// a Linux kernel does for a user process.
		var ms uint64
		if ms, err = u.readReg(ucRegMstatus); err == nil {
			err = u.writeReg(ucRegMstatus, ms|3<<13)
		}
	}
	if err != nil {
		u.closeEngine()
	}
	return err
}

// closeEngine closes the uc engine (not the Go side).
func (u *Unicorn) closeEngine() error {
	if u.uc == 0 {
		return nil
	}
	lifecycle.Lock()
	err := u.call("uc_close", u.l.close, u.uc)
	lifecycle.Unlock()
	u.uc = 0
	return err
}

func (u *Unicorn) call(name string, fn uintptr, args ...uintptr) error {
	r, _, _ := purego.SyscallN(fn, args...)
	if r != ucErrOK {
		return u.errorFor(name, r)
	}
	return nil
}

func (u *Unicorn) errorFor(name string, code uintptr) error {
	msg := "unknown error"
	if p, _, _ := purego.SyscallN(u.l.strerror, code); p != 0 {
		msg = goString(p)
	}
	return &UnicornError{Call: name, Code: code, Msg: msg}
}

// goString copies a NUL-terminated C string.
func goString(p uintptr) string {
	// p is C memory (a static string): reinterpret it without a
	// uintptr-to-pointer conversion vet would flag.
	b := *(**[256]byte)(unsafe.Pointer(&p))
	n := 0
	for n < len(b) && b[n] != 0 {
		n++
	}
	return string(b[:n])
}

func (u *Unicorn) readReg(id int) (uint64, error) {
	err := u.call("uc_reg_read", u.l.regRead, u.uc, uintptr(id), uintptr(unsafe.Pointer(&u.scratch[0])))
	return u.scratch[0], err
}

func (u *Unicorn) writeReg(id int, v uint64) error {
	u.scratch[0] = v
	return u.call("uc_reg_write", u.l.regWrite, u.uc, uintptr(id), uintptr(unsafe.Pointer(&u.scratch[0])))
}

func ucPerm(p mem.Perm) uintptr {
	// UC_PROT_READ=1, WRITE=2, EXEC=4: the same bits as mem.Perm.
	return uintptr(p & mem.RWX)
}

// Map implements Oracle.
func (u *Unicorn) Map(addr, size uint64, perm mem.Perm) error {
	return u.call("uc_mem_map", u.l.memMap, u.uc, uintptr(addr), uintptr(size), ucPerm(perm))
}

// Unmap implements Oracle.
func (u *Unicorn) Unmap(addr, size uint64) error {
	return u.call("uc_mem_unmap", u.l.memUnmap, u.uc, uintptr(addr), uintptr(size))
}

// Protect implements Oracle.
func (u *Unicorn) Protect(addr, size uint64, perm mem.Perm) error {
	return u.call("uc_mem_protect", u.l.memProtect, u.uc, uintptr(addr), uintptr(size), ucPerm(perm))
}

// ReadMem implements Oracle.
func (u *Unicorn) ReadMem(addr uint64, buf []byte) error {
	if len(buf) == 0 {
		return nil
	}
	if len(buf) <= 8 {
		// Small reads (store checks) go through pinned scratch, so buf
		// need not escape.
		err := u.call("uc_mem_read", u.l.memRead, u.uc, uintptr(addr), uintptr(unsafe.Pointer(&u.scratch[0])), uintptr(len(buf)))
		copy(buf, unsafe.Slice((*byte)(unsafe.Pointer(&u.scratch[0])), len(buf)))
		return err
	}
	err := u.call("uc_mem_read", u.l.memRead, u.uc, uintptr(addr), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
	runtime.KeepAlive(buf)
	return err
}

// WriteMem implements Oracle. Unicorn 2.0.1 does not drop translated
// code that uc_mem_write overwrites, so WriteMem does.
func (u *Unicorn) WriteMem(addr uint64, data []byte) error {
	if len(data) == 0 {
		return nil
	}
	err := u.call("uc_mem_write", u.l.memWrite, u.uc, uintptr(addr), uintptr(unsafe.Pointer(&data[0])), uintptr(len(data)))
	runtime.KeepAlive(data)
	if err != nil {
		return err
	}
	return u.call("uc_ctl", u.l.ctl, u.uc, ucCtlTBRemoveCache, uintptr(addr), uintptr(addr+uint64(len(data))))
}

// recycleEvery is how many Resets an engine serves before it is closed
// and opened again. Translated code is never reclaimed until the code
// buffer fills, and Unicorn 2.0.1 then crashes in tb_set_jmp_target while
// chaining blocks (seen after a few thousand random programs); a fresh
// engine (about 10 ms) starts with an empty buffer.
const recycleEvery = 200

// Reset unmaps all memory and drops all translated code, so the engine
// can be reused for another program (opening one costs milliseconds).
func (u *Unicorn) Reset() error {
	if u.resets++; u.resets >= recycleEvery {
		if err := u.closeEngine(); err != nil {
			return err
		}
		return u.open()
	}
	u.scratch[0], u.scratch[1] = 0, 0
	if err := u.call("uc_mem_regions", u.l.memRegions, u.uc, uintptr(unsafe.Pointer(&u.scratch[0])), uintptr(unsafe.Pointer(&u.scratch[1]))); err != nil {
		return err
	}
	regs, n := uintptr(u.scratch[0]), uint32(u.scratch[1])
	type region struct {
		begin, end uint64 // inclusive
		perms      uint32
	}
	var rs []region
	if n > 0 {
		rs = append(rs, unsafe.Slice(*(**region)(unsafe.Pointer(&regs)), n)...)
		purego.SyscallN(u.l.free, regs)
	}
	for _, r := range rs {
		// Drop the translated code of executable regions (a full TB flush
		// costs about a second in 2.0.1).
		if r.perms&uint32(mem.X) != 0 {
			if err := u.call("uc_ctl", u.l.ctl, u.uc, ucCtlTBRemoveCache, uintptr(r.begin), uintptr(r.end+1)); err != nil {
				return err
			}
		}
		if err := u.Unmap(r.begin, r.end-r.begin+1); err != nil {
			return err
		}
	}
	return nil
}

// ReadState implements Oracle with one uc_reg_read_batch call.
func (u *Unicorn) ReadState(s *State) error {
	if err := u.call("uc_reg_read_batch", u.l.regReadBatch, u.uc,
		uintptr(unsafe.Pointer(&u.ids[0])), uintptr(unsafe.Pointer(&u.ptrs[0])), stateRegs); err != nil {
		return err
	}
	s.X[0] = 0
	copy(s.X[1:], u.vals[0:31])
	copy(s.F[:], u.vals[31:63])
	s.PC, s.FCSR = u.vals[63], u.vals[64]
	return nil
}

// WriteState implements Oracle with one uc_reg_write_batch call.
func (u *Unicorn) WriteState(s *State) error {
	copy(u.vals[0:31], s.X[1:])
	copy(u.vals[31:63], s.F[:])
	u.vals[63], u.vals[64] = s.PC, s.FCSR
	return u.call("uc_reg_write_batch", u.l.regWriteBatch, u.uc,
		uintptr(unsafe.Pointer(&u.ids[0])), uintptr(unsafe.Pointer(&u.ptrs[0])), stateRegs)
}

// SetX implements Oracle.
func (u *Unicorn) SetX(r int, v uint64) error {
	if r < 1 || r > 31 {
		return fmt.Errorf("difftest: SetX: register x%d out of range 1..31", r)
	}
	return u.writeReg(ucRegX0+r, v)
}

// SetF implements Oracle.
func (u *Unicorn) SetF(r int, v uint64) error {
	if r < 0 || r > 31 {
		return fmt.Errorf("difftest: SetF: register f%d out of range 0..31", r)
	}
	return u.writeReg(ucRegF0+r, v)
}

// mretInsn is the encoding of mret.
const mretInsn = 0x30200073

// EnterUserMode drops the engine to U-mode and leaves it at pc, as a Linux
// process runs: privileged instructions (M-mode CSRs, mret) then trap in
// the oracle as they do in rvsim. Unicorn 2.0.1 has no register for the
// privilege level, so the engine executes one mret from a page at scratch,
// which must be free in the guest's address space; the page is unmapped
// again. An engine already in U-mode traps on the mret, which is as good.
func (u *Unicorn) EnterUserMode(pc, scratch uint64) error {
	if err := u.Map(scratch, mem.PageSize, mem.RX); err != nil {
		return err
	}
	defer func() {
		u.call("uc_ctl", u.l.ctl, u.uc, ucCtlTBRemoveCache, uintptr(scratch), uintptr(scratch+mem.PageSize))
		u.Unmap(scratch, mem.PageSize)
	}()
	if err := u.WriteMem(scratch, []byte{mretInsn & 0xff, mretInsn >> 8 & 0xff, mretInsn >> 16 & 0xff, mretInsn >> 24}); err != nil {
		return err
	}
	ms, err := u.readReg(ucRegMstatus)
	if err != nil {
		return err
	}
	const mpp = 3 << 11
	if err := u.writeReg(ucRegMstatus, ms&^mpp); err != nil { // MPP = U
		return err
	}
	if err := u.writeReg(ucRegMepc, pc); err != nil {
		return err
	}
	// Run, not Step: a run with a count (Step's) after one without, or the
	// reverse, makes Unicorn 2.0.1 drop every translated block
	// (uc_emu_start's count hook), and the flush clears the whole code
	// buffer: 75 ms a program, 95% of TestRandomPrograms' time. The hook
	// lets the mret through and stops before the instruction at pc.
	trap, err := u.Run(scratch, func(at uint64) bool { return at == scratch })
	if err != nil {
		return err
	}
	if trap != nil && trap.Cause != 2 { // 2: illegal instruction, from U-mode already
		return fmt.Errorf("difftest: entering U-mode: the oracle raised exception %d on mret", trap.Cause)
	}
	return u.writeReg(ucRegPC, pc)
}

// ReadCSR reads one of Unicorn's CSRs by its UC_RISCV_REG_* number (tests
// and diagnostics).
func (u *Unicorn) ReadCSR(id int) (uint64, error) { return u.readReg(id) }

// Step implements Oracle: uc_emu_start with count=1 and no "until"
// address. Unicorn translates a block from pc to the end of its basic
// block the first time a pc is stepped into and reuses it afterwards
// (about 1.5 µs a step). An "until" address would end blocks after one
// instruction, but Unicorn 2.0.1 then throws the block away at the next
// start, which costs 10-15 µs a step.
func (u *Unicorn) Step(pc uint64) (*Trap, error) {
	lifecycle.RLock()
	defer lifecycle.RUnlock()
	u.trapped = false
	if err := u.call("uc_emu_start", u.l.emuStart, u.uc, uintptr(pc), ^uintptr(0), 0, 1); err != nil {
		return nil, err
	}
	if u.trapped {
		return &Trap{Cause: u.cause}, nil
	}
	return nil, nil
}

// Run implements Oracle: uc_emu_start without a count, with the code
// hook calling before. Unicorn translates whole basic blocks and reuses
// them, so this is the fast way to run in lock-step (a Go callback per
// instruction, about 1.5 µs).
func (u *Unicorn) Run(pc uint64, before func(pc uint64) bool) (*Trap, error) {
	u.trapped, u.stopped, u.panicked = false, false, nil
	u.before = before
	lifecycle.RLock()
	err := u.call("uc_emu_start", u.l.emuStart, u.uc, uintptr(pc), ^uintptr(0), 0, 0)
	lifecycle.RUnlock()
	u.before = nil
	if u.panicked != nil {
		panic(u.panicked)
	}
	if u.trapped {
		return &Trap{Cause: u.cause}, nil
	}
	if u.stopped {
		return nil, nil
	}
	return nil, err
}

// Close implements Oracle.
func (u *Unicorn) Close() error {
	if u.uc == 0 {
		return nil
	}
	engines.Lock()
	delete(engines.m, u.token)
	engines.Unlock()
	err := u.closeEngine()
	u.pinner.Unpin()
	return err
}
