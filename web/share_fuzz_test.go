package web

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"tapelab/web/apitest"
)

// FuzzShareRequest feeds arbitrary bodies and ids to the share routes: the
// handler must never panic, must answer only with its documented statuses
// and error shape (the page, for a share page that names no share), and whatever it accepts must read back as a fixed point
// (the stored document, posted again, gets the same id).
//
//	go test ./web -run '^$' -fuzz FuzzShareRequest -fuzztime 60s
func FuzzShareRequest(f *testing.F) {
	docs, err := apitest.SpecDocs()
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range [][]byte{docs.Model, docs.Variant, docs.Invalid, nil, []byte("{"), []byte(`{"version":1}`),
		[]byte(`{"version":1,"input":[2],"layers":[{"type":"conv2d","out_channels":2,"kernel_size":3}],"loss":"mse","seed":1}`),
		[]byte(strings.Repeat("[", 10000)), []byte(`{"version":1e400}`), []byte("\"\\ud800\""),
		[]byte(`{"version":1,"program":"a = param(2.0)\nb = a * a\n"}`), []byte(`{"version":1,"program":"b = a @ a"}`)} {
		f.Add(seed, "abcdefghijklmnop")
	}
	f.Add([]byte("{}"), "../../etc/passwd")
	f.Add([]byte("{}"), "<script>")
	h, err := NewHandler(Options{Static: shareStatic(), Store: newKVStore(&memKV{}), CacheDir: f.TempDir()})
	if err != nil {
		f.Fatal(err)
	}
	serve := func(t *testing.T, method, target string, body []byte) *httptest.ResponseRecorder {
		req, err := http.NewRequest(method, target, bytes.NewReader(body))
		if err != nil {
			return nil
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code == http.StatusNotFound && !strings.HasPrefix(target, "/api/") {
			// A share page that names no share is the playground's page.
			if rec.Body.String() != page {
				t.Fatalf("%s %s: 404 with body %q, not the playground's page", method, target, rec.Body)
			}
		} else if rec.Code >= 400 {
			var e map[string]string
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || len(e) != 1 || e["error"] == "" {
				t.Fatalf("%s %s: %d with body %q, not a JSON error", method, target, rec.Code, rec.Body)
			}
		}
		return rec
	}
	f.Fuzz(func(t *testing.T, body []byte, id string) {
		rec := serve(t, "POST", "/api/share", body)
		switch {
		case rec.Code == http.StatusCreated:
			var created shareCreated
			if err := json.Unmarshal(rec.Body.Bytes(), &created); err != nil || !ValidShareID(created.ID) {
				t.Fatalf("201 with body %q", rec.Body)
			}
			got := serve(t, "GET", "/api/share/"+created.ID, nil)
			if got.Code != http.StatusOK {
				t.Fatalf("GET of the new share %s: %d", created.ID, got.Code)
			}
			again := serve(t, "POST", "/api/share", got.Body.Bytes())
			if again.Code != http.StatusCreated || !strings.Contains(again.Body.String(), created.ID) {
				t.Fatalf("reposting the stored document %q: %d %q, want 201 with id %s", got.Body, again.Code, again.Body, created.ID)
			}
		case rec.Code == http.StatusBadRequest:
		case rec.Code == http.StatusRequestEntityTooLarge && len(body) > MaxShareBytes:
		default:
			t.Fatalf("POST of %d bytes: status %d %q", len(body), rec.Code, rec.Body)
		}
		for _, prefix := range []string{"/api/share/", "/s/", "/embed/"} {
			rec := serve(t, "GET", prefix+url.PathEscape(id), nil)
			if rec == nil {
				continue
			}
			switch rec.Code {
			case http.StatusOK, http.StatusNotFound, http.StatusBadRequest,
				// Ids that escape their segment ("..", "a/b") are cleaned
				// or routed elsewhere by the mux.
				http.StatusMovedPermanently, http.StatusTemporaryRedirect:
			default:
				t.Fatalf("GET %s%q: status %d", prefix, id, rec.Code)
			}
		}
	})
}
