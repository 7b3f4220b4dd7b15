package suite

import "testing"

// Parallel jobs run the timing model inline unless told otherwise: the
// jobs fill the cores already.
func TestOptionsForJobs(t *testing.T) {
	for _, c := range []struct{ jobs, threads, want int }{
		{1, 0, 0}, {0, 0, 0}, {2, 0, 1}, {8, 0, 1}, {2, 2, 2}, {1, 2, 2}, {2, 1, 1},
	} {
		if got := (Options{TimingThreads: c.threads}).ForJobs(c.jobs).TimingThreads; got != c.want {
			t.Errorf("jobs %d, threads %d: got %d, want %d", c.jobs, c.threads, got, c.want)
		}
	}
}
