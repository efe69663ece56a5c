//go:build unix

package workerdtest

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"sync"
)

// restartedAnswer begins the body of the 503 that wrangler's dev proxy
// sends, instead of the worker's answer, when the worker reloads while a
// request with a body is on its way; it asks the client to send it again.
const restartedAnswer = "Your worker restarted mid-request."

// RetryTransport sends each request again, at most Limit times in all,
// when wrangler's dev proxy answers that the worker restarted mid-request:
// an answer of the development server, never of the worker. Any other
// answer, and every answer past the limit, is returned as it came.
type RetryTransport struct {
	Base  http.RoundTripper // nil means http.DefaultTransport
	Limit int

	mu      sync.Mutex
	retried []string
}

// Retried returns "METHOD path" of each request sent again.
func (t *RetryTransport) Retried() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.retried...)
}

// RoundTrip implements http.RoundTripper. It reads the request's body
// first, so that it can send it again with the same declared length (or
// none, for a streamed body).
func (t *RetryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
	}
	for {
		r := req.Clone(req.Context())
		if body != nil {
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		resp, err := base.RoundTrip(r)
		if err != nil || resp.StatusCode != http.StatusServiceUnavailable {
			return resp, err
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if !strings.HasPrefix(string(b), restartedAnswer) || !t.take(req) {
			resp.Body = io.NopCloser(bytes.NewReader(b))
			return resp, nil
		}
	}
}

// take counts one more retry of req if the limit allows it.
func (t *RetryTransport) take(req *http.Request) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.retried) >= t.Limit {
		return false
	}
	t.retried = append(t.retried, req.Method+" "+req.URL.Path)
	return true
}
