package compare

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/sys/unix"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/internal/crash"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/sampling"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/suite"
)

// Compare runs every cell of the comparison (the cached ones from the
// cache) and collects the results.
func Compare(opt Options) (*Results, error) {
	if opt.Input == "" {
		opt.Input = "test"
	}
	if opt.Timing && opt.Machine == "" {
		return nil, fmt.Errorf("compare: timing mode needs a machine configuration")
	}
	bs, err := opt.benchmarks()
	if err != nil {
		return nil, err
	}
	cells := opt.Cells()
	runs := make([]*Run, len(cells))
	keys := make([]string, len(cells))
	var todo []int
	for i := range cells {
		if opt.CacheDir != "" {
			k, err := opt.CellKey(&cells[i], bs[cells[i].Benchmark], opt.Version)
			if err != nil {
				return nil, err
			}
			keys[i] = k
			if !opt.NoCache {
				if r, ok := loadCached(opt.CacheDir, k); ok {
					runs[i] = r
					continue
				}
			}
		}
		todo = append(todo, i)
	}
	prog := newProgress(opt.Progress, len(cells), len(cells)-len(todo))
	sem := make(chan struct{}, max(opt.Jobs, 1))
	threads := suite.Options{}.ForJobs(opt.Jobs).TimingThreads
	var wg sync.WaitGroup
	for _, i := range todo {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer crash.Exit(os.Stderr)
			defer func() { <-sem; wg.Done() }()
			c := &cells[i]
			runs[i] = runCell(&opt.Spec, c, bs[c.Benchmark], threads)
			cellsRun.Add(1)
			if keys[i] != "" {
				storeCached(opt.CacheDir, keys[i], runs[i]) // a cache that cannot be written only costs a rerun
			}
			prog.done(c.Benchmark+"/"+c.Label(), runs[i])
		}(i)
	}
	wg.Wait()
	prog.finish()
	return build(&opt.Spec, cells, runs), nil
}

// cellsRun counts the cells Compare ran rather than read from the cache
// (tests).
var cellsRun atomic.Int64

// CellKey is the cache key of a cell: a hash of everything that decides
// its result (docs/COMPARISON.md, "Cache"): the program's hash, the
// input, the suite file entry, the root, the sampling settings, the
// profiler's configuration, the machine's configuration and the
// simulator's version.
func (s *Spec) CellKey(c *Cell, b suite.Benchmark, version string) (string, error) {
	in, err := b.Input(s.Input)
	if err != nil {
		return "", err
	}
	prog := b.Binary
	if prog == "" {
		exe := b.ExePath
		if exe == "" {
			exe = "/" + b.Name
		}
		prog = filepath.Join(b.Root, exe)
	}
	progHash, err := fileHash(prog)
	if err != nil {
		return "", err
	}
	inHash := sha256.New()
	json.NewEncoder(inHash).Encode(struct {
		Name, Check     string
		Args, Env       []string
		Stdin, Out, Err []byte
		Any             bool
		Status          int
	}{in.Name, in.Check, in.Args, b.Env, in.Stdin, in.Stdout, in.Stderr, in.AnyStdout, in.Status})
	for _, f := range in.Files {
		h, err := fileHash(f)
		if err != nil {
			return "", err
		}
		inHash.Write([]byte(f + h))
	}
	m, err := s.machine(c)
	if err != nil {
		return "", err
	}
	machine := ""
	if m != nil {
		machine = hashString(s.MachineName + "\n" + config.Format(m))
	}
	profHash, err := s.profilerHash(c)
	if err != nil {
		return "", err
	}
	key := struct {
		Program, Input, SuiteEntry, Root, Cwd string
		Sampling                              any
		Profiler, Machine, Version            string
	}{
		Program: progHash, Input: hex.EncodeToString(inHash.Sum(nil)),
		SuiteEntry: fmt.Sprintf("%s:%d:%s:%s", b.File, b.Line, b.Name, s.Input), Root: b.Root + "|" + b.Sysroot, Cwd: b.Dir + "|" + b.GuestCwd,
		Sampling: struct {
			MaxInsts uint64
			Timing   bool
			Sampled  *sampling.Cache
		}{s.MaxInsts, s.Timing, s.Sampled},
		Profiler: profHash, Machine: machine, Version: version,
	}
	data, _ := json.Marshal(key)
	return hashString(string(data)), nil
}

// profilerHash hashes a cell's profiler configuration: its ACF files,
// trigger, DISE hardware and handler runtime, or its profhw units' text
// and settings.
func (s *Spec) profilerHash(c *Cell) (string, error) {
	p := s.profiler(c)
	if p == nil {
		return "none", nil
	}
	h := sha256.New()
	json.NewEncoder(h).Encode(p)
	switch p.Source {
	case SourceACF:
		json.NewEncoder(h).Encode(s.DISE)
		files := append([]string(nil), p.ACF...)
		handlers := s.Handlers
		if handlers == "" {
			handlers = sim.DefaultHandlers()
		}
		if handlers != "" {
			files = append(files, handlers)
		}
		for _, f := range files {
			fh, err := fileHash(f)
			if err != nil {
				return "", err
			}
			h.Write([]byte(fh))
		}
	case SourcePreset:
		text, err := profhw.PresetText(p.ProfHW)
		if err != nil {
			return "", err
		}
		h.Write(text)
	default:
		fh, err := fileHash(p.ProfHW)
		if err != nil {
			return "", err
		}
		h.Write([]byte(fh))
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func hashString(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func fileHash(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

var (
	versionOnce sync.Once
	versionHash string
)

// Version identifies this simulator build for the cache: the given
// version string and a hash of the running executable (so a rebuilt
// rvsim never reuses an old build's cells).
func Version(v string) string {
	versionOnce.Do(func() {
		if exe, err := os.Executable(); err == nil {
			versionHash, _ = fileHash(exe)
		}
	})
	return v + "+" + versionHash
}

func loadCached(dir, key string) (*Run, bool) {
	data, err := os.ReadFile(filepath.Join(dir, key+".json"))
	if err != nil {
		return nil, false
	}
	var r Run
	if json.Unmarshal(data, &r) != nil {
		return nil, false
	}
	return &r, true
}

func storeCached(dir, key string, r *Run) {
	if !r.Pass {
		return // a failure is not cached: the next run tries again
	}
	data, err := json.Marshal(r)
	if err != nil || os.MkdirAll(dir, 0o755) != nil {
		return
	}
	tmp := filepath.Join(dir, key+".tmp")
	if os.WriteFile(tmp, data, 0o644) == nil {
		os.Rename(tmp, filepath.Join(dir, key+".json"))
	}
}

// progress reports the runs: a progress bar with done/total, rate and ETA
// on a terminal (mpb), a line per finished run otherwise.
type progress struct {
	w      io.Writer
	mu     sync.Mutex
	total  int
	ended  int
	p      *mpb.Progress
	bar    *mpb.Bar
	start  time.Time
	cached int
}

func newProgress(w io.Writer, total, cached int) *progress {
	pr := &progress{w: w, total: total, ended: cached, cached: cached, start: time.Now()}
	if w == nil {
		return pr
	}
	if f, ok := w.(*os.File); ok {
		// A terminal with a size (a pseudo-terminal may have none: mpb
		// then draws nothing) gets the bar.
		ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
		if err == nil && ws.Col > 0 {
			pr.p = mpb.New(mpb.WithOutput(w), mpb.WithWidth(40))
			pr.bar = pr.p.AddBar(int64(total),
				mpb.PrependDecorators(decor.Name("compare "), decor.CountersNoUnit("%d/%d runs")),
				mpb.AppendDecorators(decor.AverageSpeed(0, " %.2f runs/s"), decor.Name("  ETA "), decor.AverageETA(decor.ET_STYLE_GO)))
			pr.bar.SetCurrent(int64(cached))
			pr.bar.DecoratorAverageAdjust(time.Now())
			return pr
		}
	}
	if cached > 0 {
		fmt.Fprintf(w, "%d of %d runs from the cache\n", cached, total)
	}
	return pr
}

func (p *progress) done(label string, r *Run) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ended++
	status := "ok"
	if !r.Pass {
		status = "FAIL: " + r.Why
	}
	if p.bar != nil {
		p.bar.Increment()
		if !r.Pass {
			fmt.Fprintf(p.p, "%s %s\n", label, status) // printed above the bar
		}
		return
	}
	rate := float64(p.ended-p.cached) / time.Since(p.start).Seconds()
	eta := time.Duration(float64(p.total-p.ended) / rate * float64(time.Second)).Round(time.Second)
	fmt.Fprintf(p.w, "[%d/%d] %s %.1fs %s (%.2f runs/s, ETA %s)\n", p.ended, p.total, label, r.HostSeconds, status, rate, eta)
}

func (p *progress) finish() {
	if p.p != nil {
		p.bar.SetTotal(int64(p.total), true)
		p.p.Wait()
	}
}
