package collector

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, "sqlite"
)

// Store keeps uploads in a SQLite database (modernc.org/sqlite, no cgo).
//
// Durability: the database is in WAL mode with synchronous=FULL, so every
// commit syncs the write-ahead log to disk before it returns, and the
// server acknowledges an upload only after its transaction has committed.
// An acknowledged upload therefore survives a kill -9 of the server and
// also a crash of the host or a power loss (synchronous=NORMAL would
// survive the first but could lose the last commits in the others). The
// cost is one fsync per upload, small beside the network round trip of an
// upload. An upload that had not committed leaves nothing: its
// transaction is rolled back when the database is next opened.
type Store struct {
	w, r *sql.DB // w: one connection, so writes queue in the process; r: readers
	path string
}

const schema = `
CREATE TABLE IF NOT EXISTS programs (
	id       INTEGER PRIMARY KEY,
	key      TEXT NOT NULL,   -- Identity.Key(): build-id:HEX or sha256:HEX
	input    TEXT NOT NULL,
	identity TEXT NOT NULL,   -- Identity as JSON
	UNIQUE (key, input)
);
CREATE TABLE IF NOT EXISTS uploads (
	id       INTEGER PRIMARY KEY,
	program  INTEGER NOT NULL REFERENCES programs (id),
	run      BLOB NOT NULL,
	seq      INTEGER NOT NULL,
	protocol TEXT NOT NULL,
	first_iv INTEGER NOT NULL, -- the intervals [first_iv, end_iv) of the run
	end_iv   INTEGER NOT NULL,
	trace    TEXT NOT NULL,   -- JSON array of phase IDs
	wire     INTEGER NOT NULL, -- frame bytes received
	frame    BLOB NOT NULL,   -- the frame as received
	received TEXT NOT NULL,
	UNIQUE (run, seq)
);
CREATE INDEX IF NOT EXISTS uploads_program ON uploads (program);
CREATE TABLE IF NOT EXISTS samples (
	upload   INTEGER NOT NULL REFERENCES uploads (id),
	interval INTEGER NOT NULL,
	phase    INTEGER NOT NULL,
	profiles TEXT NOT NULL    -- JSON array of profile.Profile
);
CREATE INDEX IF NOT EXISTS samples_upload ON samples (upload);
PRAGMA user_version = 1;
`

// OpenStore opens (creating it if need be) the database at path.
func OpenStore(path string) (*Store, error) {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	dsn := "file:" + esc + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=foreign_keys(1)"
	// The writer's transactions take the write lock at BEGIN (IMMEDIATE),
	// so that a writer in another process (an import) waits for the busy
	// timeout instead of failing at its first write.
	w, err := sql.Open("sqlite", dsn+"&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	w.SetMaxOpenConns(1)
	s := &Store{w: w, path: path}
	var mode string
	if err := w.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil {
		w.Close()
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if mode != "wal" {
		w.Close()
		return nil, fmt.Errorf("%s: journal mode %q, want wal", path, mode)
	}
	var version int
	if err := w.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		w.Close()
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if version > 1 {
		w.Close()
		return nil, fmt.Errorf("%s: schema version %d is newer than this rvsim's (1)", path, version)
	}
	if _, err := w.Exec(schema); err != nil {
		w.Close()
		return nil, fmt.Errorf("%s: creating the schema: %v", path, err)
	}
	r, err := sql.Open("sqlite", dsn)
	if err != nil {
		w.Close()
		return nil, err
	}
	s.r = r
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error {
	err := s.r.Close()
	if werr := s.w.Close(); err == nil {
		err = werr
	}
	return err
}

// ConflictError is an upload that contradicts what the store holds: a
// frame of a known run and sequence number with other contents, or
// intervals another frame of the run already covers.
type ConflictError struct{ Msg string }

func (e *ConflictError) Error() string { return e.Msg }

// Put stores one decoded frame (raw is its bytes) in one transaction.
// It returns after the commit; a frame already stored is acknowledged
// again (Duplicate) and not stored twice.
func (s *Store) Put(ctx context.Context, raw []byte, f *Frame) (Ack, error) {
	p := f.Payload
	key := p.Program.Key()
	ack := Ack{Samples: len(p.Samples), Program: key}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return Ack{}, err
	}
	defer tx.Rollback()
	// The run's frames so far (the bytes of the one with this frame's
	// sequence number only).
	rows, err := tx.QueryContext(ctx, `SELECT u.id, u.seq, u.first_iv, u.end_iv, CASE WHEN u.seq = ? THEN u.frame END, p.key, p.input
		FROM uploads u JOIN programs p ON p.id = u.program WHERE u.run = ?`, f.Seq, f.Run[:])
	if err != nil {
		return Ack{}, err
	}
	for rows.Next() {
		var id int64
		var seq uint32
		var first, end uint64
		var frame []byte
		var k, in string
		if err := rows.Scan(&id, &seq, &first, &end, &frame, &k, &in); err != nil {
			rows.Close()
			return Ack{}, err
		}
		switch {
		case seq == f.Seq && bytes.Equal(frame, raw):
			rows.Close()
			ack.Upload, ack.Duplicate = id, true
			return ack, nil
		case seq == f.Seq:
			rows.Close()
			return Ack{}, &ConflictError{fmt.Sprintf("run %s frame %d is already stored with other contents", f.Run, f.Seq)}
		case k != key || in != p.Input:
			rows.Close()
			return Ack{}, &ConflictError{fmt.Sprintf("run %s is of program %s input %q, this frame says %s input %q", f.Run, k, in, key, p.Input)}
		case p.First < end && first < p.End:
			rows.Close()
			return Ack{}, &ConflictError{fmt.Sprintf("run %s: intervals [%d, %d) overlap those of its frame %d, [%d, %d)", f.Run, p.First, p.End, seq, first, end)}
		}
	}
	if err := rows.Close(); err != nil {
		return Ack{}, err
	}
	ident, _ := json.Marshal(p.Program)
	if _, err := tx.ExecContext(ctx, `INSERT INTO programs (key, input, identity) VALUES (?, ?, ?) ON CONFLICT (key, input) DO NOTHING`, key, p.Input, string(ident)); err != nil {
		return Ack{}, err
	}
	var prog int64
	if err := tx.QueryRowContext(ctx, `SELECT id FROM programs WHERE key = ? AND input = ?`, key, p.Input).Scan(&prog); err != nil {
		return Ack{}, err
	}
	trace, _ := json.Marshal(p.Trace)
	if p.Trace == nil {
		trace = []byte("[]")
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO uploads (program, run, seq, protocol, first_iv, end_iv, trace, wire, frame, received) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		prog, f.Run[:], f.Seq, string(p.Protocol), p.First, p.End, string(trace), len(raw), raw, time.Now().UTC().Format(time.RFC3339Nano))
	if err != nil {
		return Ack{}, err
	}
	if ack.Upload, err = res.LastInsertId(); err != nil {
		return Ack{}, err
	}
	for _, sm := range p.Samples {
		js, err := json.Marshal(sm.Profiles)
		if err != nil {
			return Ack{}, err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO samples (upload, interval, phase, profiles) VALUES (?, ?, ?, ?)`, ack.Upload, sm.Interval, sm.Phase, string(js)); err != nil {
			return Ack{}, err
		}
	}
	if err := tx.Commit(); err != nil {
		return Ack{}, err
	}
	return ack, nil
}

// ProgramInfo is one program and input the store holds uploads of.
type ProgramInfo struct {
	Key       string   `json:"key"`
	Program   Identity `json:"program"`
	Input     string   `json:"input"`
	Runs      int      `json:"runs"`
	Uploads   int      `json:"uploads"`
	Samples   int      `json:"samples"`
	Intervals uint64   `json:"intervals"`
	Wire      uint64   `json:"wire_bytes"` // frame bytes received
}

// Programs lists the programs and inputs, by key and input.
func (s *Store) Programs(ctx context.Context) ([]ProgramInfo, error) {
	rows, err := s.r.QueryContext(ctx, `
		SELECT p.key, p.identity, p.input, COUNT(DISTINCT u.run), COUNT(u.id),
			COALESCE(SUM((SELECT COUNT(*) FROM samples s WHERE s.upload = u.id)), 0),
			COALESCE(SUM(u.end_iv - u.first_iv), 0), COALESCE(SUM(u.wire), 0)
		FROM programs p LEFT JOIN uploads u ON u.program = p.id
		GROUP BY p.id ORDER BY p.key, p.input`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []ProgramInfo{}
	for rows.Next() {
		var pi ProgramInfo
		var ident string
		if err := rows.Scan(&pi.Key, &ident, &pi.Input, &pi.Runs, &pi.Uploads, &pi.Samples, &pi.Intervals, &pi.Wire); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(ident), &pi.Program); err != nil {
			return nil, fmt.Errorf("program %s: stored identity: %v", pi.Key, err)
		}
		out = append(out, pi)
	}
	return out, rows.Err()
}

// Counts is how much the store holds.
type Counts struct {
	Programs int    `json:"programs"` // programs and inputs
	Runs     int    `json:"runs"`
	Uploads  int    `json:"uploads"`
	Samples  int    `json:"samples"`
	Wire     uint64 `json:"wire_bytes"`
}

// Counts counts the stored programs, runs, uploads and samples.
func (s *Store) Counts(ctx context.Context) (Counts, error) {
	var c Counts
	err := s.r.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM programs), (SELECT COUNT(DISTINCT run) FROM uploads),
		(SELECT COUNT(*) FROM uploads), (SELECT COUNT(*) FROM samples), (SELECT COALESCE(SUM(wire), 0) FROM uploads)`).
		Scan(&c.Programs, &c.Runs, &c.Uploads, &c.Samples, &c.Wire)
	return c, err
}

// ErrNotFound is a program (and input) the store holds nothing of.
var ErrNotFound = errors.New("no uploads of that program and input")

// runData is what the merge needs of one run.
type runData struct {
	run     string
	phases  map[uint32]uint64 // intervals of each phase
	samples []storedSample
}

type storedSample struct {
	phase    uint32
	profiles string // JSON
}

// load reads the runs of program key (and input, unless all is set), in
// run order.
func (s *Store) load(ctx context.Context, key, input string, all bool) (Identity, []string, []*runData, int, error) {
	q := `SELECT p.identity, p.input, u.id, hex(u.run), u.trace FROM uploads u JOIN programs p ON p.id = u.program WHERE p.key = ?`
	args := []any{key}
	if !all {
		q += ` AND p.input = ?`
		args = append(args, input)
	}
	q += ` ORDER BY u.run, u.seq`
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // one snapshot for both queries
	if err != nil {
		return Identity{}, nil, nil, 0, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return Identity{}, nil, nil, 0, err
	}
	var id Identity
	inputs := []string{}
	seenInput := map[string]bool{}
	byRun := map[string]*runData{}
	var runs []*runData
	uploadRun := map[int64]*runData{}
	n := 0
	for rows.Next() {
		var ident, in, run, trace string
		var up int64
		if err := rows.Scan(&ident, &in, &up, &run, &trace); err != nil {
			rows.Close()
			return Identity{}, nil, nil, 0, err
		}
		n++
		if n == 1 {
			json.Unmarshal([]byte(ident), &id)
		}
		if !seenInput[in] {
			seenInput[in] = true
			inputs = append(inputs, in)
		}
		rd := byRun[run]
		if rd == nil {
			rd = &runData{run: run, phases: map[uint32]uint64{}}
			byRun[run] = rd
			runs = append(runs, rd)
		}
		uploadRun[up] = rd
		var t []uint32
		if err := json.Unmarshal([]byte(trace), &t); err != nil {
			rows.Close()
			return Identity{}, nil, nil, 0, fmt.Errorf("upload %d: stored trace: %v", up, err)
		}
		for _, ph := range t {
			rd.phases[ph]++
		}
	}
	if err := rows.Close(); err != nil {
		return Identity{}, nil, nil, 0, err
	}
	if n == 0 {
		return Identity{}, nil, nil, 0, ErrNotFound
	}
	sort.Strings(inputs)
	q = `SELECT s.upload, s.phase, s.profiles FROM samples s JOIN uploads u ON u.id = s.upload JOIN programs p ON p.id = u.program WHERE p.key = ?`
	if !all {
		q += ` AND p.input = ?`
	}
	q += ` ORDER BY u.run, u.seq, s.interval`
	rows, err = tx.QueryContext(ctx, q, args...)
	if err != nil {
		return Identity{}, nil, nil, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var up int64
		var sm storedSample
		if err := rows.Scan(&up, &sm.phase, &sm.profiles); err != nil {
			return Identity{}, nil, nil, 0, err
		}
		rd := uploadRun[up]
		if rd == nil {
			continue // stored after the first query's snapshot: cannot happen inside one transaction
		}
		rd.phases[sm.phase]++
		rd.samples = append(rd.samples, sm)
	}
	return id, inputs, runs, n, rows.Err()
}
