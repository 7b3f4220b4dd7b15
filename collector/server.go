package collector

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ServerConfig configures the collector service.
type ServerConfig struct {
	// Token, if set, is the bearer token every request must carry
	// (Authorization: Bearer TOKEN), compared in constant time.
	Token string
	// MaxUpload bounds an upload's body in bytes (0: DefaultMaxUpload).
	MaxUpload int64
	// Log receives one line per refused request and per store error (nil:
	// no log).
	Log *log.Logger
}

// DefaultMaxUpload is the default bound on an upload's body: 16 MiB.
const DefaultMaxUpload = 16 << 20

// Handler is the collector's HTTP service:
//
//	POST /v1/uploads                   one frame; 201 and an Ack after the commit
//	GET  /v1/programs                  the programs and inputs stored ([]ProgramInfo)
//	GET  /v1/programs/{key}/profile    the merged profile (Merged); ?input=NAME for
//	                                   one input, else every input of the program
//	GET  /v1/uploads/count             how much is stored (Counts)
//
// A refused request gets a 4xx and a one-line message, and stores nothing:
// 400 malformed or truncated, 401 no or wrong token, 409 in conflict with
// what is stored, 413 larger than MaxUpload.
type Handler struct {
	store *Store
	cfg   ServerConfig
	mux   *http.ServeMux
}

// NewHandler returns the service over store.
func NewHandler(store *Store, cfg ServerConfig) *Handler {
	if cfg.MaxUpload <= 0 {
		cfg.MaxUpload = DefaultMaxUpload
	}
	h := &Handler{store: store, cfg: cfg, mux: http.NewServeMux()}
	h.mux.HandleFunc("POST /v1/uploads", h.upload)
	h.mux.HandleFunc("GET /v1/programs", h.programs)
	h.mux.HandleFunc("GET /v1/programs/{key}/profile", h.merged)
	h.mux.HandleFunc("GET /v1/uploads/count", h.count)
	return h
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.cfg.Token != "" && !h.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="rvsim-collector"`)
		h.fail(w, r, http.StatusUnauthorized, "missing or wrong bearer token (Authorization: Bearer TOKEN)")
		return
	}
	h.mux.ServeHTTP(w, r)
}

func (h *Handler) authorized(r *http.Request) bool {
	a := r.Header.Get("Authorization")
	tok, ok := strings.CutPrefix(a, "Bearer ")
	if !ok {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(tok), []byte(h.cfg.Token)) == 1
}

// fail answers with status and a one-line message.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, status int, msg string) {
	msg = strings.ReplaceAll(msg, "\n", " ")
	if h.cfg.Log != nil {
		h.cfg.Log.Printf("%s %s from %s: %d %s", r.Method, r.URL.Path, r.RemoteAddr, status, msg)
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	fmt.Fprintf(w, "collector: %s\n", msg)
}

func (h *Handler) writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		http.Error(w, "collector: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(data, '\n'))
}

func (h *Handler) upload(w http.ResponseWriter, r *http.Request) {
	max := h.cfg.MaxUpload
	if r.ContentLength > max {
		h.fail(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("upload of %d bytes is larger than the limit of %d (--max-upload)", r.ContentLength, max))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	if err != nil {
		var mb *http.MaxBytesError
		switch {
		case errors.As(err, &mb):
			h.fail(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("upload is larger than the limit of %d bytes (--max-upload)", max))
		case errors.Is(err, io.ErrUnexpectedEOF):
			h.fail(w, r, http.StatusBadRequest, fmt.Sprintf("truncated upload: the body ended after %d of %d bytes", len(body), r.ContentLength))
		default:
			h.fail(w, r, http.StatusBadRequest, fmt.Sprintf("reading the upload: %v", err))
		}
		return
	}
	f, err := DecodeFrame(body)
	if err != nil {
		msg := "malformed upload: " + err.Error()
		var fe *FormatError
		if errors.As(err, &fe) && fe.Truncated {
			msg = "truncated upload: " + err.Error()
		}
		h.fail(w, r, http.StatusBadRequest, msg)
		return
	}
	ack, err := h.store.Put(r.Context(), body, f)
	if err != nil {
		var ce *ConflictError
		if errors.As(err, &ce) {
			h.fail(w, r, http.StatusConflict, ce.Msg)
			return
		}
		h.fail(w, r, http.StatusInternalServerError, "storing the upload: "+err.Error())
		return
	}
	status := http.StatusCreated
	if ack.Duplicate {
		status = http.StatusOK
	}
	h.writeJSON(w, status, ack)
}

func (h *Handler) programs(w http.ResponseWriter, r *http.Request) {
	ps, err := h.store.Programs(r.Context())
	if err != nil {
		h.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	h.writeJSON(w, http.StatusOK, ps)
}

func (h *Handler) merged(w http.ResponseWriter, r *http.Request) {
	key := r.PathValue("key")
	q := r.URL.Query()
	input, one := q.Get("input"), q.Has("input")
	m, err := h.store.Merge(r.Context(), key, input, !one)
	switch {
	case errors.Is(err, ErrNotFound):
		what := "program " + key
		if one {
			what += " input " + strconv.Quote(input)
		}
		h.fail(w, r, http.StatusNotFound, "no uploads of "+what+" (GET /v1/programs lists them)")
		return
	case err != nil:
		h.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	h.writeJSON(w, http.StatusOK, m)
}

func (h *Handler) count(w http.ResponseWriter, r *http.Request) {
	c, err := h.store.Counts(r.Context())
	if err != nil {
		h.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	h.writeJSON(w, http.StatusOK, c)
}

// Serve runs the service on ln until ctx is done, then shuts down
// gracefully: it stops accepting, lets the requests in flight finish
// (their uploads commit and are acknowledged) for up to grace, and
// returns.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, grace time.Duration) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       5 * time.Minute,
		IdleTimeout:       2 * time.Minute,
	}
	fresh := trackFresh(srv)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(sctx) }()
	// A connection that has not begun a request holds no work in flight,
	// but net/http's Shutdown counts it as idle only once it is 5 s old
	// and waits for it until then (a client's transport may dial one that
	// it never uses): close those while Shutdown waits for the rest. A
	// request whose first bytes arrive just then fails at the client,
	// unacknowledged, as one arriving after the stop would.
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	var err error
	for wait := true; wait; {
		select {
		case err = <-shut:
			wait = false
		case <-tick.C:
			fresh.closeAll()
		}
	}
	if e := <-errc; e != nil && !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}

// freshConns are a server's connections that have not begun a request.
type freshConns struct {
	mu    sync.Mutex
	conns map[net.Conn]bool
}

// trackFresh follows srv's connections through their states.
func trackFresh(srv *http.Server) *freshConns {
	f := &freshConns{conns: map[net.Conn]bool{}}
	srv.ConnState = func(c net.Conn, st http.ConnState) {
		f.mu.Lock()
		defer f.mu.Unlock()
		if st == http.StateNew {
			f.conns[c] = true
		} else {
			delete(f.conns, c)
		}
	}
	return f
}

func (f *freshConns) closeAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for c := range f.conns {
		c.Close()
		delete(f.conns, c)
	}
}
