package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/rvsim/rvsim/collector"
	"github.com/rvsim/rvsim/mem"
	"github.com/rvsim/rvsim/profile"
)

const collectorHelp = `Usage:
  rvsim collector serve --addr HOST:PORT --db FILE [--token T | --token-file F] [--max-upload BYTES]
  rvsim collector import [--db FILE | --remote URL [--token T | --token-file F]] FILE...
  rvsim collector send --program ELF [--input NAME] [--protocol P] (--remote URL | -o FILE) PROFILE.json...
  rvsim collector dump FILE...

The remote profile collector of hps-phase-aware-remote-profiling.md §4 and
§5.4 (docs/COLLECTOR.md).

serve receives profile frames over HTTP (POST /v1/uploads), stores each in
the SQLite database FILE (WAL, synchronous=FULL) before it acknowledges
it, and serves the programs and their merged profiles as JSON
(GET /v1/programs, GET /v1/programs/KEY/profile[?input=NAME],
GET /v1/uploads/count). It prints "collector: listening on ADDR" once it
accepts connections (--addr 127.0.0.1:0 picks a free port) and stops
gracefully on SIGINT or SIGTERM.

import loads the frames of local files (written by a run without a remote
address) into a database or sends them to a collector; a frame already
stored is not stored twice. send packs profiles written by 'rvsim run
--profile-out' as one run of ELF, each file a sampled interval of its own
phase, sends them by protocol P (at-end, the default, or interleaved) to a
collector or appends them to FILE, and prints the bytes sent and their
cost on the §5.4 wireless card. dump prints each frame of the files as
JSON.

Flags:
  --addr HOST:PORT        serve: where to listen (default 127.0.0.1:8417)
  --db FILE               the SQLite database (created if need be)
  --token T               the bearer token every request must carry
  --token-file F          read the token from F (one line): a token on the
                          command line is visible to other users of the host
  --max-upload BYTES      serve: the largest upload accepted (default 16M;
                          K/M/G/T suffixes)
  --remote URL            import, send: send the frames to the collector at URL
  --program ELF           send: the program the profiles are of (its build-id,
                          else its SHA-256, identifies it)
  --input NAME            send: the input's name (default "")
  --protocol P            send: at-end (default) or interleaved
  -o FILE                 send: append the frames to FILE instead
`

// collectorCmd implements `rvsim collector serve|import|dump`.
func collectorCmd(args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) == 0 {
		fmt.Fprint(stderr, collectorHelp)
		return 2, nil
	}
	for _, a := range args {
		if a == "-h" || a == "-help" || a == "--help" {
			fmt.Fprint(stdout, collectorHelp)
			return 0, nil
		}
	}
	sub, rest := args[0], args[1:]
	var addr, db, token, tokenFile, maxUpload, remote, program, input, protocol, out string
	c := newFlags("collector", "", "", stdout)
	switch sub {
	case "serve":
		c.String(&addr, "addr", "", "127.0.0.1:8417", "")
		c.String(&maxUpload, "max-upload", "", "16M", "")
	case "import":
		c.String(&remote, "remote", "", "", "")
	case "send":
		c.String(&remote, "remote", "", "", "")
		c.String(&program, "program", "", "", "")
		c.String(&input, "input", "", "", "")
		c.String(&protocol, "protocol", "", string(collector.AtEnd), "")
		c.String(&out, "o", "", "", "")
	case "dump":
	default:
		return 2, &usageError{fmt.Sprintf("collector: unknown subcommand %q (want serve, import, send or dump)", sub)}
	}
	if sub != "dump" {
		c.String(&db, "db", "", "", "")
		c.String(&token, "token", "", "", "")
		c.String(&tokenFile, "token-file", "", "", "")
	}
	if err := c.parse(rest); err != nil {
		return 2, err
	}
	if tokenFile != "" {
		if token != "" {
			return 2, &usageError{"collector: give --token or --token-file, not both"}
		}
		data, err := os.ReadFile(tokenFile)
		if err != nil {
			return 2, &usageError{fmt.Sprintf("--token-file %s: %v", tokenFile, unwrapPath(err))}
		}
		if token = strings.TrimSpace(string(data)); token == "" || strings.ContainsAny(token, "\r\n") {
			return 2, &usageError{fmt.Sprintf("--token-file %s: want one non-empty line", tokenFile)}
		}
	}
	switch sub {
	case "serve":
		if len(c.Args()) != 0 {
			return 2, &usageError{fmt.Sprintf("collector serve: unexpected argument %q", c.Args()[0])}
		}
		if db == "" {
			return 2, &usageError{"collector serve: want --db FILE"}
		}
		max, err := mem.ParseSize(maxUpload)
		if err != nil || max < collector.HeaderSize || max > 1<<40 {
			return 2, &usageError{fmt.Sprintf("--max-upload %q: want a size from %d bytes to 1T (K/M/G suffixes)", maxUpload, collector.HeaderSize)}
		}
		return collectorServe(addr, db, collector.ServerConfig{Token: token, MaxUpload: int64(max), Log: log.New(stderr, "collector: ", log.LstdFlags)}, stdout)
	case "import":
		if len(c.Args()) == 0 {
			return 2, &usageError{"collector import: want FILE..."}
		}
		if (db == "") == (remote == "") {
			return 2, &usageError{"collector import: want --db FILE or --remote URL"}
		}
		return collectorImport(db, remote, token, c.Args(), stdout)
	case "send":
		if db != "" {
			return 2, &usageError{"collector send: --db is not for send (use import)"}
		}
		if len(c.Args()) == 0 || program == "" {
			return 2, &usageError{"collector send: want --program ELF and PROFILE.json..."}
		}
		if (out == "") == (remote == "") {
			return 2, &usageError{"collector send: want --remote URL or -o FILE"}
		}
		proto, err := collector.ParseProtocol(protocol)
		if err != nil {
			return 2, &usageError{"--protocol: " + err.Error()}
		}
		return collectorSend(program, input, proto, remote, token, out, c.Args(), stdout)
	default:
		if len(c.Args()) == 0 {
			return 2, &usageError{"collector dump: want FILE..."}
		}
		enc := json.NewEncoder(stdout)
		for _, file := range c.Args() {
			err := readFrameFile(file, func(off int64, _ []byte, f *collector.Frame) error {
				return enc.Encode(struct {
					File    string             `json:"file"`
					Offset  int64              `json:"offset"`
					Run     string             `json:"run"`
					Seq     uint32             `json:"seq"`
					Wire    int                `json:"wire_bytes"`
					Payload *collector.Payload `json:"payload"`
				}{file, off, f.Run.String(), f.Seq, f.Wire, f.Payload})
			})
			if err != nil {
				return 1, err
			}
		}
		return 0, nil
	}
}

func collectorServe(addr, db string, cfg collector.ServerConfig, stdout io.Writer) (int, error) {
	store, err := collector.OpenStore(db)
	if err != nil {
		return 1, err
	}
	defer store.Close()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return 1, fmt.Errorf("--addr %s: %v", addr, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(stdout, "collector: listening on %s (db %s)\n", ln.Addr(), db)
	if err := collector.Serve(ctx, ln, collector.NewHandler(store, cfg), 30*time.Second); err != nil {
		return 1, err
	}
	fmt.Fprintln(stdout, "collector: stopped")
	return 0, nil
}

// collectorSend sends profile files as one run, each a sampled interval
// of its own phase.
func collectorSend(program, input string, proto collector.Protocol, remote, token, out string, files []string, stdout io.Writer) (int, error) {
	id, err := collector.IdentifyFile(program)
	if err != nil {
		return 2, &usageError{fmt.Sprintf("--program %s: %v", program, unwrapPath(err))}
	}
	var samples [][]profile.Profile
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return 1, fmt.Errorf("%s: %v", file, unwrapPath(err))
		}
		ps, err := profile.Read(data)
		if se := (*profile.SyntaxError)(nil); errors.As(err, &se) {
			return 1, fmt.Errorf("%s:%v", file, err) // file:line:col: msg
		}
		if err != nil {
			return 1, fmt.Errorf("%s: %v", file, err)
		}
		samples = append(samples, ps)
	}
	sink, err := collector.Open(remote, token, out)
	if err != nil {
		return 2, &usageError{err.Error()}
	}
	b, err := collector.NewBuffer(collector.Run{Program: id, Input: input, Protocol: proto}, sink)
	if err != nil {
		sink.Close()
		return 2, &usageError{err.Error()}
	}
	for i, ps := range samples {
		if err := b.Interval(uint64(i), uint32(i), ps); err != nil {
			sink.Close()
			return 1, fmt.Errorf("%s: %v", files[i], err)
		}
	}
	st, err := b.Finish()
	if err != nil {
		return 1, err
	}
	j, sec := collector.WireCost(st.Wire)
	fmt.Fprintf(stdout, "%s (%s): %d samples in %d frames, %d bytes of JSON, %d compressed, %d on the wire (%.6f J, %.6f s on the 11 Mb/s card)\n",
		id.Name, id.Key(), st.Samples, st.Frames, st.Raw, st.Compressed, st.Wire, j, sec)
	return 0, nil
}

func collectorImport(db, remote, token string, files []string, stdout io.Writer) (int, error) {
	var put func(raw []byte, f *collector.Frame) (collector.Ack, error)
	if db != "" {
		store, err := collector.OpenStore(db)
		if err != nil {
			return 1, err
		}
		defer store.Close()
		put = func(raw []byte, f *collector.Frame) (collector.Ack, error) {
			return store.Put(context.Background(), raw, f)
		}
	} else {
		cl, err := collector.NewClient(remote, token)
		if err != nil {
			return 2, &usageError{"--remote: " + err.Error()}
		}
		put = func(raw []byte, _ *collector.Frame) (collector.Ack, error) {
			return cl.Upload(context.Background(), raw)
		}
	}
	for _, file := range files {
		var stored, dup int
		err := readFrameFile(file, func(off int64, raw []byte, f *collector.Frame) error {
			ack, err := put(raw, f)
			if err != nil {
				return fmt.Errorf("%s: offset %d: %v", file, off, err)
			}
			if ack.Duplicate {
				dup++
			} else {
				stored++
			}
			return nil
		})
		fmt.Fprintf(stdout, "%s: %d frames stored, %d already stored\n", file, stored, dup)
		if err != nil {
			return 1, err
		}
	}
	return 0, nil
}

// readFrameFile calls fn with each frame of a local frame file; errors
// name the file and the byte offset.
func readFrameFile(file string, fn func(off int64, raw []byte, f *collector.Frame) error) error {
	fh, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("%s: %v", file, unwrapPath(err))
	}
	defer fh.Close()
	err = collector.ReadFrames(fh, 1<<30, fn)
	var fe *collector.FormatError
	if errors.As(err, &fe) {
		return fmt.Errorf("%s: %v", file, err)
	}
	if pe := (*os.PathError)(nil); errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", file, pe.Err) // a read error (a directory)
	}
	return err
}
