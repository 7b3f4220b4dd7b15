package test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runWithStdinPipe runs name with args, its standard input a host pipe
// the test holds: data (if any) is written after delay and the pipe stays
// open until the process ends. It returns stdout and the wall-clock time
// the run took; a run longer than 20 s is killed and fails the test.
func runWithStdinPipe(t *testing.T, data string, delay time.Duration, name string, args ...string) (string, time.Duration) {
	t.Helper()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer w.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdin = r
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	require.NoError(t, cmd.Start())
	r.Close()
	if data != "" {
		go func() {
			time.Sleep(delay)
			w.Write([]byte(data))
		}()
	}
	err = cmd.Wait()
	took := time.Since(start)
	require.NoError(t, ctx.Err(), "%s did not end: the wait ignored its timeout", name)
	require.NoError(t, err, "stderr: %s", errb.String())
	assert.Empty(t, errb.String())
	return out.String(), took
}

// TestPollTimeoutOnHostPipe: poll, ppoll, select and pselect on a standard
// input that is a host pipe. With no data, the call returns 0 after its
// timeout, in wall-clock time and on the guest's clock, as under
// qemu-riscv64 (today's rvsim found a host pipe always ready and then
// blocked in read forever); with data arriving before the timeout, or
// with no timeout, the call returns when the data comes.
func TestPollTimeoutOnHostPipe(t *testing.T) {
	rvsim := rvsimBinary(t)
	qemu := needQemu(t)
	prog := linuxProg(t, "linux", "pollin")
	for _, mode := range []string{"poll", "ppoll", "select", "pselect"} {
		t.Run(mode+"/timeout", func(t *testing.T) {
			out, took := runWithStdinPipe(t, "", 0, rvsim, "run", prog, mode, "400")
			q, _ := runWithStdinPipe(t, "", 0, qemu, prog, mode, "400")
			ready := "revents 0"
			if mode == "select" || mode == "pselect" {
				ready = "ready 0"
			}
			// rvsim's guest clock advances by the timeout exactly; qemu's is
			// the host's, which a loaded machine may make wait a tenth or
			// more longer, so only qemu's wait is a lower bound.
			assert.Equal(t, fmt.Sprintf("%s returns 0 %s\nwaited 4 tenths\n", mode, ready), out)
			var qmode, qready string
			var qn, qwait int
			_, err := fmt.Sscanf(q, "%s returns %d %s 0\nwaited %d tenths\n", &qmode, &qn, &qready, &qwait)
			require.NoError(t, err, "qemu-riscv64's output %q", q)
			assert.Equal(t, []any{mode, 0}, []any{qmode, qn}, "qemu-riscv64's output %q", q)
			assert.GreaterOrEqual(t, qwait, 4, "qemu-riscv64's output %q", q)
			assert.GreaterOrEqual(t, took, 400*time.Millisecond, "returned before its timeout")
			assert.Less(t, took, 10*time.Second)
		})
	}
	for _, tc := range []struct{ mode, timeout, want string }{
		{"poll", "8000", "poll returns 1 revents 0x1\nread hi\n"},
		{"pselect", "8000", "pselect returns 1 ready 1\nread hi\n"},
		{"ppoll", "-1", "ppoll returns 1 revents 0x1\nread hi\n"},
		{"select", "-1", "select returns 1 ready 1\nread hi\n"},
	} {
		t.Run(tc.mode+"/data/"+tc.timeout, func(t *testing.T) {
			out, took := runWithStdinPipe(t, "hi\n", 300*time.Millisecond, rvsim, "run", prog, tc.mode, tc.timeout)
			assert.Equal(t, tc.want, out)
			assert.GreaterOrEqual(t, took, 300*time.Millisecond)
			assert.Less(t, took, 6*time.Second, "waited for the timeout although data came")
		})
	}
}
