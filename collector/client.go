package collector

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Client posts frames to a collector. A frame whose upload fails for a
// reason that may pass (the network, a 5xx, 408, 429) is sent again,
// at most Attempts times in all and never after Budget has passed since
// the first attempt; the waits between attempts double from Backoff. A
// retry cannot store a frame twice: the collector recognises the run ID
// and sequence number of a frame it already stored.
type Client struct {
	URL      string        // the collector's base URL: http://127.0.0.1:8417
	Token    string        // bearer token ("" for none)
	HTTP     *http.Client  // nil: a client with a 30 s timeout per attempt
	Attempts int           // 0: 5
	Budget   time.Duration // 0: 60 s
	Backoff  time.Duration // 0: 100 ms
}

// NewClient returns a client for the collector at base (http or https).
func NewClient(base, token string) (*Client, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("collector address %q: want http://HOST:PORT", base)
	}
	return &Client{URL: strings.TrimRight(base, "/"), Token: token}, nil
}

// Ack is the collector's answer to a stored upload.
type Ack struct {
	Upload    int64  `json:"upload"`    // the upload's number in the store
	Samples   int    `json:"samples"`   // samples stored
	Duplicate bool   `json:"duplicate"` // the frame was already stored (a retry)
	Program   string `json:"program"`   // the program's key
}

// StatusError is a refused upload: the HTTP status and the collector's
// one-line message.
type StatusError struct {
	Status int
	Msg    string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("collector: %d %s: %s", e.Status, http.StatusText(e.Status), e.Msg)
}

func (e *StatusError) temporary() bool {
	return e.Status >= 500 || e.Status == http.StatusRequestTimeout || e.Status == http.StatusTooManyRequests
}

// Send uploads one frame (the Sink interface).
func (c *Client) Send(frame []byte) error {
	_, err := c.Upload(context.Background(), frame)
	return err
}

// Close does nothing: a Client holds no connection between uploads.
func (c *Client) Close() error { return nil }

// Upload posts one frame and returns the collector's acknowledgement,
// which it sends only after the frame is committed to its store.
func (c *Client) Upload(ctx context.Context, frame []byte) (Ack, error) {
	attempts, budget, wait := c.Attempts, c.Budget, c.Backoff
	if attempts <= 0 {
		attempts = 5
	}
	if budget <= 0 {
		budget = 60 * time.Second
	}
	if wait <= 0 {
		wait = 100 * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	var err error
	for i := 0; i < attempts; i++ {
		if i > 0 {
			select {
			case <-ctx.Done():
				return Ack{}, fmt.Errorf("%w (gave up after %d attempts, budget %v)", err, i, budget)
			case <-time.After(wait):
			}
			wait *= 2
		}
		var ack Ack
		ack, err = c.once(ctx, frame)
		if err == nil {
			return ack, nil
		}
		var se *StatusError
		if errors.As(err, &se) && !se.temporary() {
			return Ack{}, err
		}
	}
	return Ack{}, fmt.Errorf("%w (gave up after %d attempts)", err, attempts)
}

func (c *Client) once(ctx context.Context, frame []byte) (Ack, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL+"/v1/uploads", bytes.NewReader(frame))
	if err != nil {
		return Ack{}, err
	}
	req.Header.Set("Content-Type", ContentType)
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	hc := c.HTTP
	if hc == nil {
		hc = defaultHTTP
	}
	resp, err := hc.Do(req)
	if err != nil {
		return Ack{}, fmt.Errorf("collector: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if err != nil {
		return Ack{}, fmt.Errorf("collector: reading the answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusCreated {
		return Ack{}, &StatusError{Status: resp.StatusCode, Msg: strings.TrimSpace(string(body))}
	}
	var ack Ack
	if err := json.Unmarshal(body, &ack); err != nil {
		return Ack{}, fmt.Errorf("collector: the acknowledgement is not JSON: %v", err)
	}
	return ack, nil
}

var defaultHTTP = &http.Client{Timeout: 30 * time.Second}

// ContentType is the media type of an upload's body (one frame).
const ContentType = "application/vnd.rvsim.profile-frame"
