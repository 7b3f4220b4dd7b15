package pathprof

import (
	"fmt"
	"strings"
)

// MaxLen is the longest path a descriptor holds, in branches (§3: "paths
// to grow up to 32 branch instructions").
const MaxLen = 32

// Desc is a path descriptor (§3, Fig. 3): the address of the path's first
// instruction, its length in branches and one direction bit per branch
// (bit i is the i-th branch; 1 = taken).
type Desc struct {
	Start uint64
	Dirs  uint32
	Len   uint8
}

// Directions renders the direction bits as a string, first branch first:
// "TNT" is taken, not taken, taken.
func (d Desc) Directions() string {
	var b strings.Builder
	for i := 0; i < int(d.Len); i++ {
		if d.Dirs>>i&1 != 0 {
			b.WriteByte('T')
		} else {
			b.WriteByte('N')
		}
	}
	return b.String()
}

func (d Desc) String() string { return fmt.Sprintf("%#x/%d/%s", d.Start, d.Len, d.Directions()) }

// Path is a path the path stack emitted (popped).
type Path struct {
	Desc
	Events     uint64 // the event counter: the PPCR's metric along the path
	Insts      uint64 // instructions along the path
	Incomplete bool   // its start was lost to a stack overflow (§3): ignored
}

// entry is one path stack entry (§3): the descriptor, the event counter,
// the extension counter, the incomplete mark, and for the longjmp repair
// the return address of the call that pushed it and the last address a
// return landed on in its frame.
type entry struct {
	d          Desc
	events     uint64
	insts      uint64
	ext        uint8
	incomplete bool
	link       uint64
	lastRet    uint64
}

// Overflow is the path stack's overflow policy (§3).
type Overflow uint8

// The overflow policies.
const (
	// DropBottom removes the bottom entry to make room; the matching
	// underflow creates an entry marked incomplete, whose path is ignored
	// when popped.
	DropBottom Overflow = iota
	// Spill pushes the oldest entries into a memory region the OS
	// allocates; underflows read them back (the traffic is counted).
	Spill
	// Unbounded never overflows: the exact reference.
	Unbounded
)

var overflowNames = []string{"drop", "spill", "unbounded"}

func (o Overflow) String() string { return overflowNames[o] }

// StackStats counts what the path stack did.
type StackStats struct {
	Pushes, Pops, Updates, UpdateCounts uint64
	Splits                              uint64 // paths split at MaxLen
	Overflows                           uint64 // entries dropped or spilled
	SpillWrites, SpillReads             uint64 // entries moved to and from memory (Spill)
	Underflows                          uint64 // pops that found the stack empty (a new incomplete entry, or a read from memory)
	Repairs                             uint64 // returns whose target did not match, repaired (longjmp)
	Unmatched                           uint64 // returns whose target matched no entry
	Abandoned                           uint64 // entries a repair removed
	MaxDepth                            int

	CompletePaths, IncompletePaths uint64
	CompleteInsts, IncompleteInsts uint64 // instructions on complete and incomplete paths (dropped and abandoned entries included)
	UnattributedInsts              uint64 // blocks ended by a branch that neither updates nor counts
}

// Stack is the path stack with the PPCR that drives it (§3). Branch
// processes one retiring branch; the paths it pops are in Out until the
// next call.
type Stack struct {
	ppcr     PPCR
	policy   Overflow
	depth    int
	maxLen   uint8
	countMax uint64 // the event counter saturates here
	nesting  bool
	bl       bool // Table 1's PPCR without extension: Branch's fast cases for calls and returns

	// The hardware entries are buf[lo:lo+n], the top last; dropping the
	// bottom moves lo (indices, not slices: no pointer writes per branch).
	buf   []entry
	lo, n int
	mem   []entry // spilled entries, oldest first

	out   [4]Path // the paths popped by the last Branch
	nOut  int
	Stats StackStats

	// Latency of the last Branch: operations performed.
	LastOps Op
}

// NewStack builds a path stack of depth entries (ignored when Unbounded)
// whose event counters have counterBits bits.
func NewStack(p PPCR, policy Overflow, depth int, counterBits uint, entryPC uint64) *Stack {
	s := &Stack{ppcr: p, policy: policy, depth: depth, maxLen: MaxLen, nesting: p.nesting(), bl: p.Ops == BL.Ops && p.Extend == ExtendNone}
	if counterBits >= 64 {
		s.countMax = ^uint64(0)
	} else {
		s.countMax = 1<<counterBits - 1
	}
	if policy == Unbounded {
		s.depth = int(^uint(0) >> 1)
		s.buf = make([]entry, 64)
	} else {
		s.buf = make([]entry, 2*depth)
	}
	s.appendHW(entry{d: Desc{Start: entryPC}})
	s.Stats.MaxDepth = 1
	return s
}

// SetMaxLen lowers the descriptor's length limit (tests of splitting).
func (s *Stack) SetMaxLen(n uint8) { s.maxLen = n }

// Depth is the number of entries, in hardware and in memory.
func (s *Stack) Depth() int { return s.n + len(s.mem) }

// Out is the paths the last Branch popped (valid until the next call).
func (s *Stack) Out() []Path { return s.out[:s.nOut] }

// at is hardware entry i (0 the bottom).
func (s *Stack) at(i int) *entry { return &s.buf[s.lo+i] }

// OpenInsts is the instructions on the paths still on the stack.
func (s *Stack) OpenInsts() uint64 {
	var n uint64
	for i := 0; i < s.n; i++ {
		n += s.at(i).insts
	}
	for i := range s.mem {
		n += s.mem[i].insts
	}
	return n
}

// AddOpen adds instructions after the last branch to the top path (the
// run ended inside it).
func (s *Stack) AddOpen(insts uint64) {
	s.ensureTop(0).insts += insts
}

// Branch processes one retiring branch of type t at pc whose successor is
// target (the fall-through is the return address a call leaves), with
// the instructions and events of its block (since the previous branch,
// itself included).
func (s *Stack) Branch(t BranchType, pc, target, fallThrough uint64, taken bool, insts, events uint64) {
	s.nOut = 0
	o := s.ppcr.Ops[t]
	if o == OpUpdate && s.ppcr.Extend == ExtendNone && s.n > 0 {
		// The common case, a branch that only extends the top path.
		if e := s.top(); e.d.Len+1 < s.maxLen {
			s.LastOps = o
			s.Stats.Updates++
			e.insts += insts
			e.events = min(e.events+events, s.countMax)
			e.d.Dirs |= b2u(taken) << e.d.Len // branch-free: directions are unpredictable
			e.d.Len++
			return
		}
	}
	if o == OpUpdate|OpPop|OpPush && s.n > 0 && t != Call && t != Return && (t != Backward || s.ppcr.Extend != ExtendLoops) {
		// The other common case (BL's backward and indirect branches): the
		// top path ends here and the next starts at the target in the same
		// frame, in the same entry.
		e := s.top()
		s.LastOps = o
		s.Stats.Updates++
		s.Stats.Pops++
		s.Stats.Pushes++
		e.insts += insts
		e.events = min(e.events+events, s.countMax)
		e.d.Dirs |= b2u(taken) << e.d.Len // branch-free: directions are unpredictable
		e.d.Len++
		s.emit(e)
		*e = entry{d: Desc{Start: target}, link: e.link, lastRet: e.lastRet}
		return
	}
	if s.bl && s.n > 0 {
		switch t {
		case Call:
			// update-count, push, with room on the stack.
			if s.n < s.depth && s.lo+s.n < len(s.buf) {
				e := s.top()
				s.LastOps = o
				s.Stats.UpdateCounts++
				s.Stats.Pushes++
				e.insts += insts
				e.events = min(e.events+events, s.countMax)
				s.buf[s.lo+s.n] = entry{d: Desc{Start: target}, link: fallThrough}
				s.n++
				if d := s.n + len(s.mem); d > s.Stats.MaxDepth {
					s.Stats.MaxDepth = d
				}
				return
			}
		case Return:
			// update-count, pop, onto the caller's entry, no repair.
			if e := s.top(); s.n >= 2 && (e.link == 0 || e.incomplete || e.link == target) {
				s.LastOps = o
				s.Stats.UpdateCounts++
				s.Stats.Pops++
				e.insts += insts
				e.events = min(e.events+events, s.countMax)
				s.emit(e)
				s.n--
				s.top().lastRet = target
				return
			}
		}
	}
	ext := 0
	// §3 "Detecting extended paths": a boundary branch only updates the
	// top path while its extension counter allows.
	switch s.ppcr.Extend {
	case ExtendLoops:
		if t == Backward && s.n > 0 && s.top().ext < s.ppcr.MaxExt {
			o, ext = OpUpdate, 1
		}
	case ExtendProcedures:
		if s.n > 0 {
			if t == Call && s.top().ext < s.ppcr.MaxExt {
				o, ext = OpUpdate, 1
			} else if t == Return && s.top().ext > 0 {
				o, ext = OpUpdate, -1
			}
		}
	}
	if t == Return && s.nesting && ext == 0 {
		s.checkReturn(target)
	}
	s.LastOps = o
	// The frame of the top entry: a pop and push by a branch inside a
	// procedure starts the next path in the same frame.
	var link, lastRet uint64
	if o&OpPush != 0 && s.n > 0 {
		link, lastRet = s.top().link, s.top().lastRet
	}
	switch {
	case o&OpUpdate != 0:
		s.Stats.Updates++
		e := s.ensureTop(pc)
		e.insts += insts
		e.events = min(e.events+events, s.countMax)
		e.d.Dirs |= b2u(taken) << e.d.Len // branch-free: directions are unpredictable
		e.d.Len++
		e.ext = uint8(int(e.ext) + ext)
		if e.d.Len >= s.maxLen && o&OpPop == 0 {
			// §3: a path that reaches the descriptor's limit is popped and
			// a new one starts at the branch's target (in the same frame).
			s.Stats.Splits++
			cont := entry{d: Desc{Start: target}, link: e.link, lastRet: e.lastRet}
			if s.ppcr.Extend == ExtendProcedures {
				cont.ext = e.ext // still inside the callees it extended into
			}
			s.emit(e)
			*e = cont
		}
		switch {
		case ext > 0 && t == Call:
			// The path goes on into the callee: the callee's frame takes
			// it, and the caller's frame starts a new path at the return
			// address when the callee returns.
			s.LastOps |= OpPush
			cont := *e
			cont.link, cont.lastRet = fallThrough, 0
			*e = entry{d: Desc{Start: fallThrough}, link: e.link, lastRet: e.lastRet}
			s.push(cont)
		case ext < 0:
			// The path comes back into the caller: it replaces the
			// caller's frame entry, which holds no path yet.
			s.removeBelowTop()
		}
	case o&OpUpdateCount != 0:
		s.Stats.UpdateCounts++
		e := s.ensureTop(pc)
		e.insts += insts
		e.events = min(e.events+events, s.countMax)
	default:
		s.Stats.UnattributedInsts += insts
	}
	if o&OpPop != 0 {
		s.pop(target, o&OpPush == 0, t == Return)
	}
	if o&OpPush != 0 {
		switch t {
		case Call:
			link, lastRet = fallThrough, 0
		case Return:
			link, lastRet = 0, 0
		}
		s.push(entry{d: Desc{Start: target}, link: link, lastRet: lastRet})
	}
}

// b2u is 1 for true (a direction bit without a branch).
func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// removeBelowTop removes the entry under the top (in hardware, or the
// newest in memory); the top keeps that frame's return address.
func (s *Stack) removeBelowTop() {
	var below entry
	switch {
	case s.n >= 2:
		below = *s.at(s.n - 2)
		*s.at(s.n - 2) = *s.at(s.n - 1)
		s.n--
	case len(s.mem) > 0:
		s.Stats.SpillReads++
		below = s.mem[len(s.mem)-1]
		s.mem = s.mem[:len(s.mem)-1]
	default:
		return // dropped by an overflow
	}
	s.Stats.IncompleteInsts += below.insts // none: the caller ran nothing meanwhile
	t := s.top()
	t.link, t.lastRet = below.link, below.lastRet
}

// mayOverflow reports whether a branch of type t can push onto a full
// hardware stack.
func (s *Stack) mayOverflow(t BranchType) bool {
	return s.n >= s.depth && (s.ppcr.Ops[t]&OpPush != 0 || (s.ppcr.Extend == ExtendProcedures && t == Call))
}

// unbounded copies the stack into an unbounded one (the exact reference
// takes over from the hardware stack before its first overflow).
func (s *Stack) unbounded() *Stack {
	r := &Stack{ppcr: s.ppcr, policy: Unbounded, depth: int(^uint(0) >> 1), maxLen: s.maxLen, countMax: ^uint64(0), nesting: s.nesting, bl: s.bl}
	r.buf = make([]entry, max(64, 2*s.n))
	r.n = copy(r.buf, s.buf[s.lo:s.lo+s.n])
	r.mem = append([]entry(nil), s.mem...)
	return r
}

func (s *Stack) top() *entry { return &s.buf[s.lo+s.n-1] }

// ensureTop makes sure there is a top entry: read back from memory, or a
// new incomplete one (its beginning was lost).
func (s *Stack) ensureTop(pc uint64) *entry {
	if s.n == 0 {
		s.refill(pc)
	}
	return s.top()
}

// refill makes a top entry after an underflow.
func (s *Stack) refill(start uint64) {
	s.Stats.Underflows++
	if n := len(s.mem); n > 0 {
		s.Stats.SpillReads++
		s.appendHW(s.mem[n-1])
		s.mem = s.mem[:n-1]
		return
	}
	s.appendHW(entry{d: Desc{Start: start}, incomplete: true})
}

func (s *Stack) pop(target uint64, refill, isReturn bool) {
	s.Stats.Pops++
	e := s.ensureTop(target)
	s.emit(e)
	s.n--
	if s.n == 0 && refill {
		s.refill(target)
	}
	if isReturn {
		if s.n > 0 {
			s.top().lastRet = target
		} else if m := len(s.mem); m > 0 {
			s.mem[m-1].lastRet = target // the caller's frame, in memory
		}
	}
}

// appendHW puts e on top; a bounded stack's window slides back to the
// start of its buffer when it reaches the end (amortised: one copy per
// depth drops).
func (s *Stack) appendHW(e entry) {
	if s.lo+s.n == len(s.buf) {
		if s.policy == Unbounded {
			b := make([]entry, 2*len(s.buf))
			copy(b, s.buf[s.lo:s.lo+s.n])
			s.buf = b
		} else {
			copy(s.buf, s.buf[s.lo:s.lo+s.n])
		}
		s.lo = 0
	}
	s.buf[s.lo+s.n] = e
	s.n++
}

func (s *Stack) push(e entry) {
	s.Stats.Pushes++
	if s.n >= s.depth {
		s.Stats.Overflows++
		b := *s.at(0)
		s.lo++
		s.n--
		if s.policy == Spill {
			s.Stats.SpillWrites++
			s.mem = append(s.mem, b)
		} else {
			// The dropped path is lost; its instructions stay on a path
			// (the incomplete one its underflow will create).
			s.Stats.IncompleteInsts += b.insts
		}
	}
	s.appendHW(e)
	if d := s.Depth(); d > s.Stats.MaxDepth {
		s.Stats.MaxDepth = d
	}
}

func (s *Stack) emit(e *entry) {
	if e.incomplete {
		s.Stats.IncompletePaths++
		s.Stats.IncompleteInsts += e.insts
	} else {
		s.Stats.CompletePaths++
		s.Stats.CompleteInsts += e.insts
	}
	s.out[s.nOut] = Path{Desc: e.d, Events: e.events, Insts: e.insts, Incomplete: e.incomplete}
	s.nOut++
}

// checkReturn repairs the stack when a return does not go back to the
// call that pushed the top entry (longjmp, exceptions: §3 leaves the
// repair to software; here the hardware does it). The frame the return
// lands in is the entry whose callee's call site is the target, or the
// entry a return last landed in at the target (setjmp returned there
// once). Entries above that frame, except the top (the path that
// returns), are abandoned as incomplete.
func (s *Stack) checkReturn(target uint64) {
	n := s.n
	if n == 0 {
		return
	}
	t := s.top()
	if t.link == 0 || t.incomplete || t.link == target {
		return
	}
	// Search the whole stack, newest first: the hardware entries, then
	// (spill) the ones in memory, each a memory read.
	m := len(s.mem)
	for j := m + n - 2; j >= 0; j-- {
		if j < m {
			s.Stats.SpillReads++
		}
		if s.unified(j+1).link == target || s.unified(j).lastRet == target {
			s.Stats.Repairs++
			for k := j + 1; k < m+n-1; k++ {
				s.Stats.Abandoned++
				s.Stats.IncompletePaths++
				s.Stats.IncompleteInsts += s.unified(k).insts
			}
			top := *t
			if j+1 >= m {
				*s.at(j + 1 - m) = top
				s.n = j + 2 - m
			} else {
				s.mem = s.mem[:j+1]
				s.lo, s.n = 0, 1
				s.buf[0] = top
			}
			return
		}
	}
	s.Stats.Unmatched++
}

// unified is entry i of the whole stack, memory (oldest) then hardware.
func (s *Stack) unified(i int) *entry {
	if i < len(s.mem) {
		return &s.mem[i]
	}
	return s.at(i - len(s.mem))
}
