package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/rvsim/rvsim/collector"
	"github.com/rvsim/rvsim/sim"
)

// remoteFlags are run's remote-profiling flags
// (hps-phase-aware-remote-profiling.md §4, §5.4; docs/COLLECTOR.md): with
// a phase trigger, the sampled intervals' profiles go through a profile
// buffer to a collector (--remote) or to a local file of frames.
type remoteFlags struct {
	remote, token, protocol, file string
	buf                           *collector.Buffer
	out                           io.WriteCloser // the local file's sink
}

func (f *remoteFlags) register(c *cmdFlags) {
	c.String(&f.remote, "remote", "URL", "", "with --trigger phase:...: send the sampled profiles to the\ncollector at URL (http://127.0.0.1:PORT; docs/COLLECTOR.md)")
	c.String(&f.token, "remote-token", "T", "", "the collector's upload token")
	c.String(&f.protocol, "protocol", "P", string(collector.AtEnd), "how the profile buffer is sent: at-end (one frame at exit) or\ninterleaved (a frame after each sampled interval)")
	c.OutFile(&f.file, "remote-file", "FILE", "without --remote: where the frames go (default PROGRAM.rvprof;\nload it with 'rvsim collector import')")
}

// files checks the flags and registers the default local file.
func (f *remoteFlags) files(c *cmdFlags, files *cmdFiles, trigger, program string) error {
	phase := strings.HasPrefix(trigger, "phase:")
	switch {
	case !phase && (f.remote != "" || f.token != "" || f.file != "" || c.set("protocol")):
		return &usageError{"--remote, --remote-token, --remote-file and --protocol need --trigger phase:POLICY"}
	case f.remote != "" && f.file != "":
		return &usageError{"give --remote URL or --remote-file FILE, not both"}
	case f.token != "" && f.remote == "":
		return &usageError{"--remote-token needs --remote URL"}
	}
	if _, err := collector.ParseProtocol(f.protocol); err != nil {
		return &usageError{"--protocol: " + err.Error()}
	}
	if phase && f.remote == "" && f.file == "" {
		f.file = filepath.Base(program) + ".rvprof"
		return files.output("--remote-file", f.file)
	}
	return nil
}

// attach builds the profile buffer and hands the run's intervals to it.
func (f *remoteFlags) attach(o *sim.DISEOptions, files *cmdFiles, program string, args []string) error {
	if o == nil || !strings.HasPrefix(o.Trigger, "phase:") {
		return nil
	}
	id, err := collector.IdentifyFile(program)
	if err != nil {
		return &usageError{fmt.Sprintf("--remote: identifying %s: %v", program, err)}
	}
	var sink collector.Sink
	if f.remote != "" {
		if sink, err = collector.NewClient(f.remote, f.token); err != nil {
			return &usageError{"--remote: " + err.Error()}
		}
	} else {
		w, err := files.create("--remote-file", f.file)
		if err != nil {
			return err
		}
		sink = writerSink{w}
	}
	input := strings.Join(args, " ")
	f.buf, err = collector.NewBuffer(collector.Run{Program: id, Input: input, Protocol: collector.Protocol(f.protocol)}, sink)
	if err != nil {
		return &usageError{"--remote: " + err.Error()}
	}
	o.OnInterval = func(iv sim.PhaseInterval) error {
		if !iv.Sampled {
			return f.buf.Interval(uint64(iv.Index), uint32(iv.Phase), nil)
		}
		return f.buf.Interval(uint64(iv.Index), uint32(iv.Phase), iv.Profiles)
	}
	return nil
}

// finish sends what the buffer holds and reports what went out.
func (f *remoteFlags) finish(res *sim.Result, stderr io.Writer) error {
	if f.buf == nil {
		return nil
	}
	st, err := f.buf.Finish()
	if res.DISE != nil && res.DISE.Phase != nil {
		res.DISE.Phase.Remote = &sim.RemoteStats{Frames: st.Frames, Raw: st.Raw, Compressed: st.Compressed, Wire: st.Wire, Samples: st.Samples}
		if perr := res.DISE.Phase.Err(); perr != nil && err == nil {
			err = perr
		}
	}
	if err != nil {
		return fmt.Errorf("--remote: %v", err)
	}
	return nil
}

// writerSink sends frames to an output file; the command closes it.
type writerSink struct{ w io.Writer }

func (s writerSink) Send(frame []byte) error { _, err := s.w.Write(frame); return err }
func (s writerSink) Close() error            { return nil }
