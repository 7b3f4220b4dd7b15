package stratified

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/rvsim/rvsim/profhw/tuple"
)

// The Monte Carlo experiment of stratified-sampling.md §3.3 (Fig. 4): a
// random permutation of N tuples of which t = Frac·N are copies of one
// tuple p (the others are distinct) goes through each sampler, and p's
// count is estimated from the messages: i·r for i messages of p without a
// counter, the sum of their counts with one. ERR = |100(t − EST)/EST|
// (EST = 0 counts as 100%), averaged over Trials permutations per N.

// MCConfig is the experiment's grid.
type MCConfig struct {
	Ns         []int
	Rate       uint64  // r
	Substreams uint64  // n of the H[·]_n samplers
	Trials     int     // permutations per point
	Frac       float64 // t/N
	Seed       uint64
	Jobs       int // goroutines (0: GOMAXPROCS)
	Samplers   []string
	// Ratio switches the samplers with a counter to the ratio estimator:
	// per substream, the stream length the counts add up to times the
	// share of its messages that are p. Off: §3.3's estimator, the sum of
	// p's messages' counts.
	Ratio bool
}

// PaperMC is Fig. 4's grid: N = 1000..20000, r = 10, 2500 trials, t = 0.3N;
// the paper does not give n (we use 16).
func PaperMC() MCConfig {
	c := MCConfig{Rate: 10, Substreams: 16, Trials: 2500, Frac: 0.3, Seed: 1}
	for n := 1000; n <= 20000; n += 1000 {
		c.Ns = append(c.Ns, n)
	}
	return c
}

// Fig4Samplers are Fig. 4's six samplers at rate r with n substreams.
func Fig4Samplers(r, n uint64) []string {
	return []string{
		fmt.Sprintf("R%d", r), fmt.Sprintf("H[R%d]%d", r, n),
		fmt.Sprintf("P%d", r), fmt.Sprintf("CR%d", r),
		fmt.Sprintf("H[P%d]%d", r, n), fmt.Sprintf("H[CR%d]%d", r, n),
	}
}

// MCPoint is one sampler's mean error at one N.
type MCPoint struct {
	Sampler string
	N       int
	MeanErr float64 // percent
}

// MonteCarlo runs the experiment; the result is in sampler-major order,
// deterministic for a seed (each trial has its own seed, whatever the
// number of jobs).
func MonteCarlo(cfg MCConfig) ([]MCPoint, error) {
	if len(cfg.Samplers) == 0 {
		cfg.Samplers = Fig4Samplers(cfg.Rate, cfg.Substreams)
	}
	specs := make([]Spec, len(cfg.Samplers))
	for i, s := range cfg.Samplers {
		sp, err := ParseSpec(s)
		if err != nil {
			return nil, err
		}
		if sp.Tagged != nil || sp.Assoc != 0 {
			return nil, fmt.Errorf("montecarlo: %s: Fig. 4 compares samplers (R, P, D, C, H[X]); no tagged or A_k", s)
		}
		specs[i] = sp
	}
	jobs := cfg.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	// errs[N][trial][sampler], summed in order afterwards so that the
	// means do not depend on which goroutine finished first.
	errs := make([][]float64, len(cfg.Ns))
	for i := range errs {
		errs[i] = make([]float64, cfg.Trials*len(specs))
	}
	type work struct{ ni, trial int }
	ch := make(chan work)
	var wg sync.WaitGroup
	for j := 0; j < jobs; j++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var stream []tuple.Tuple
			for w := range ch {
				stream = trialStream(stream[:0], cfg, w.ni, w.trial)
				n := cfg.Ns[w.ni]
				t := uint64(cfg.Frac * float64(n))
				row := errs[w.ni][w.trial*len(specs):]
				for si, sp := range specs {
					row[si] = trialErr(sp, stream, t, cfg.Seed, w.ni, w.trial, si, cfg.Ratio)
				}
			}
		}()
	}
	for ni := range cfg.Ns {
		for tr := 0; tr < cfg.Trials; tr++ {
			ch <- work{ni, tr}
		}
	}
	close(ch)
	wg.Wait()
	var out []MCPoint
	for si, s := range cfg.Samplers {
		for ni, n := range cfg.Ns {
			var sum float64
			for tr := 0; tr < cfg.Trials; tr++ {
				sum += errs[ni][tr*len(specs)+si]
			}
			out = append(out, MCPoint{Sampler: s, N: n, MeanErr: sum / float64(cfg.Trials)})
		}
	}
	return out, nil
}

// mcP is the tuple whose count is estimated; the others have another PC.
var mcP = tuple.Tuple{PC: 0x1000, W: 42}

func trialSeed(seed uint64, ni, trial, salt int) uint64 {
	return seed*0x9e3779b97f4a7c15 ^ uint64(ni)<<40 ^ uint64(trial)<<8 ^ uint64(salt)
}

// trialStream is a random permutation of t copies of p and N−t distinct
// other tuples.
func trialStream(buf []tuple.Tuple, cfg MCConfig, ni, trial int) []tuple.Tuple {
	n := cfg.Ns[ni]
	t := int(cfg.Frac * float64(n))
	r := rand.New(rand.NewPCG(trialSeed(cfg.Seed, ni, trial, 0), 0x3c))
	for i := 0; i < n; i++ {
		if i < t {
			buf = append(buf, mcP)
		} else {
			buf = append(buf, tuple.Tuple{PC: 0x2000, W: r.Uint64()})
		}
	}
	r.Shuffle(n, func(i, j int) { buf[i], buf[j] = buf[j], buf[i] })
	return buf
}

// trialErr runs one sampler over the stream and returns ERR (percent).
func trialErr(sp Spec, stream []tuple.Tuple, t uint64, seed uint64, ni, trial, si int, ratio bool) float64 {
	c := New(sp, Options{Seed: trialSeed(seed, ni, trial, 1+si), CountBits: 32})
	var est uint64
	ratio = ratio && sp.Counter
	var length, msgs, pmsgs []uint64 // ratio: per substream
	if ratio {
		n := len(c.samp.cnt)
		length, msgs, pmsgs = make([]uint64, n), make([]uint64, n), make([]uint64, n)
	}
	for _, x := range stream {
		c.Push(x)
		if len(c.Out) > 0 {
			for _, m := range c.Out {
				if ratio {
					i := uint64(0)
					if c.samp.hash != nil {
						i = c.samp.hash.Index(m.T)
					}
					length[i] += m.Count
					msgs[i]++
					if m.T == mcP {
						pmsgs[i]++
					}
				} else if m.T == mcP {
					est += m.Count
				}
			}
			c.Out = c.Out[:0]
		}
	}
	if ratio {
		var e float64
		for i := range length {
			if msgs[i] != 0 {
				e += float64(length[i]) * float64(pmsgs[i]) / float64(msgs[i])
			}
		}
		est = uint64(e + 0.5)
	}
	if est == 0 {
		return 100
	}
	d := float64(t) - float64(est)
	if d < 0 {
		d = -d
	}
	return 100 * d / float64(est)
}

// FirstBelow returns, per sampler, the first N whose mean error is below
// limit (0: none in the grid).
func FirstBelow(pts []MCPoint, limit float64) map[string]int {
	out := map[string]int{}
	for _, p := range pts {
		if _, ok := out[p.Sampler]; !ok {
			out[p.Sampler] = 0
		}
		if p.MeanErr < limit && out[p.Sampler] == 0 {
			out[p.Sampler] = p.N
		}
	}
	return out
}
