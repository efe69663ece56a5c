//go:build unix

package workerdtest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestRetryTransport checks that only the proxy's restart answer is sent
// again, with the same body and declared length, and only Limit times.
func TestRetryTransport(t *testing.T) {
	tests := []struct {
		name      string
		answers   []string // "503!" is the proxy's restart answer
		limit     int
		wantCalls int
		wantCode  int
	}{
		{"ok at once", []string{"201"}, 3, 1, 201},
		{"restart then ok", []string{"503!", "201"}, 3, 2, 201},
		{"other 503 is kept", []string{"503"}, 3, 1, 503},
		{"limit reached", []string{"503!", "503!", "201"}, 1, 2, 503},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				if string(b) != "the body" || r.ContentLength != int64(len(b)) {
					t.Errorf("call %d: body %q, length %d", calls, b, r.ContentLength)
				}
				a := tt.answers[calls]
				calls++
				switch a {
				case "503!":
					w.WriteHeader(503)
					io.WriteString(w, restartedAnswer+" Please try sending the request again.")
				case "503":
					w.WriteHeader(503)
					io.WriteString(w, "the store is down")
				default:
					w.WriteHeader(201)
				}
			}))
			defer srv.Close()
			rt := &RetryTransport{Limit: tt.limit}
			client := &http.Client{Transport: rt}
			resp, err := client.Post(srv.URL+"/api/share", "application/json", bytes.NewReader([]byte("the body")))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.wantCode || calls != tt.wantCalls {
				t.Errorf("status %d after %d calls, want %d after %d", resp.StatusCode, calls, tt.wantCode, tt.wantCalls)
			}
			if got := len(rt.Retried()); got != tt.wantCalls-1 {
				t.Errorf("Retried() has %d entries, want %d", got, tt.wantCalls-1)
			}
		})
	}
}
