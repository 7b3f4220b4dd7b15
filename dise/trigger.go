package dise

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Trigger is an external sampling trigger (hps-phase-aware-remote-
// profiling.md §3.4, "External Sampling Triggers"): a timer that injects
// hps.on and hps.off into the instruction stream. Time is counted in
// application instructions (injected and handler instructions do not
// advance it), so every profiler samples the same stretches of a program.
//
//	periodic:PERIOD:LENGTH      sampling is on for LENGTH instructions every PERIOD instructions:
//	                            on at PERIOD, 2·PERIOD, …; off LENGTH instructions later
//	random:P:LENGTH[:SEED]      the program is cut into intervals of LENGTH instructions; at each
//	                            interval boundary sampling turns on for the interval with
//	                            probability 1/P (a PCG generator seeded with SEED, default 1)
//
// Both sample a fraction LENGTH/PERIOD (periodic) or 1/P (random) of the
// program; the first interval (startup) is never sampled.
type Trigger struct {
	Random bool
	Period uint64 // periodic: PERIOD; random: P
	Length uint64
	Seed   uint64
}

func (t Trigger) String() string {
	if t.Random {
		return fmt.Sprintf("random:%d:%d:%d", t.Period, t.Length, t.Seed)
	}
	return fmt.Sprintf("periodic:%d:%d", t.Period, t.Length)
}

// Fraction is the expected fraction of the program that is sampled.
func (t Trigger) Fraction() float64 {
	if t.Random {
		return 1 / float64(t.Period)
	}
	return float64(t.Length) / float64(t.Period)
}

// ParseTrigger parses a --trigger value.
func ParseTrigger(s string) (Trigger, error) {
	bad := func(msg string) (Trigger, error) {
		return Trigger{}, fmt.Errorf("trigger %q: %s (want periodic:PERIOD:LENGTH or random:P:LENGTH[:SEED])", s, msg)
	}
	f := strings.Split(s, ":")
	var t Trigger
	switch f[0] {
	case "periodic":
		if len(f) != 3 {
			return bad("periodic takes PERIOD and LENGTH")
		}
	case "random":
		t.Random, t.Seed = true, 1
		if len(f) != 3 && len(f) != 4 {
			return bad("random takes P, LENGTH and an optional SEED")
		}
	default:
		return bad("unknown kind " + strconv.Quote(f[0]))
	}
	nums := make([]uint64, len(f)-1)
	for i, x := range f[1:] {
		v, err := strconv.ParseUint(strings.ReplaceAll(x, "_", ""), 10, 64)
		if err != nil {
			return bad(fmt.Sprintf("%q is not a non-negative integer", x))
		}
		nums[i] = v
	}
	t.Period, t.Length = nums[0], nums[1]
	if len(nums) == 3 {
		t.Seed = nums[2]
	}
	switch {
	case t.Length == 0:
		return bad("LENGTH must be at least 1")
	case t.Random && t.Period == 0:
		return bad("P must be at least 1")
	case !t.Random && t.Length >= t.Period:
		return bad("LENGTH must be less than PERIOD")
	case t.Period > 1<<62 || t.Length > 1<<62:
		return bad("too large")
	}
	return t, nil
}

// Schedule is a trigger's state over one run.
type Schedule struct {
	t    Trigger
	on   bool
	next uint64 // application-instruction count of the next boundary
	rng  *rand.Rand
}

// Start returns a fresh schedule.
func (t Trigger) Start() *Schedule {
	s := &Schedule{t: t}
	if t.Random {
		s.rng = rand.New(rand.NewPCG(t.Seed, t.Seed^0x9e3779b97f4a7c15))
		s.next = t.Length
	} else {
		s.next = t.Period
	}
	return s
}

// Next is the application-instruction count at which Fire must be called.
func (s *Schedule) Next() uint64 { return s.next }

// On reports whether sampling is on.
func (s *Schedule) On() bool { return s.on }

// Fire advances past the boundary at Next and returns the change the
// trigger makes there: +1 (inject hps.on), -1 (inject hps.off) or 0.
func (s *Schedule) Fire() int {
	was := s.on
	if s.t.Random {
		s.on = s.rng.Uint64N(s.t.Period) == 0
		s.next += s.t.Length
	} else if s.on {
		s.on = false
		s.next += s.t.Period - s.t.Length
	} else {
		s.on = true
		s.next += s.t.Length
	}
	switch {
	case s.on && !was:
		return 1
	case !s.on && was:
		return -1
	}
	return 0
}
