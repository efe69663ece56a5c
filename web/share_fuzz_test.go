package web

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"tapelab/engine/program"
	"tapelab/wasm/lesson"
	"tapelab/web/apitest"
	"tapelab/web/firstview"
)

// FuzzShareRequest feeds arbitrary bodies and ids to the share routes of
// the handler `go run .` serves, which draws first views (firstview.Page)
// into the playground's real index.html: the handler must never panic,
// must answer only with its documented statuses and error shape (the
// playground's own page, for a share page that names no share), and
// whatever it accepts must read back as a fixed point (the stored
// document, posted again, gets the same id), and its /s/{id} and
// /embed/{id} pages must be its first view as firstview.Page draws it
// (see checkSharedPages). The seeds are models,
// programs (the gallery's and a long chain aN = aN-1 + x, whose drawing
// grows fastest with its length) and lessons (the built-in ones).
//
//	go test ./web -run '^$' -fuzz '^FuzzShareRequest$' -fuzztime 60s
func FuzzShareRequest(f *testing.F) {
	docs, err := apitest.SpecDocs()
	if err != nil {
		f.Fatal(err)
	}
	seeds := [][]byte{docs.Model, docs.Variant, docs.Invalid, nil, []byte("{"), []byte(`{"version":1}`),
		[]byte(`{"version":1,"input":[2],"layers":[{"type":"conv2d","out_channels":2,"kernel_size":3}],"loss":"mse","seed":1}`),
		[]byte(`{"version":1,"input":[1,8,8],"layers":[{"type":"conv2d","out_channels":2,"kernel_size":3},{"type":"relu"},{"type":"flatten"},{"type":"linear","out":3}],"loss":"cross_entropy","seed":1}`),
		[]byte(strings.Repeat("[", 10000)), []byte(`{"version":1e400}`), []byte("\"\\ud800\""),
		[]byte(`{"version":1,"program":"a = param(2.0)\nb = a * a\n"}`), []byte(`{"version":1,"program":"b = a @ a"}`)}
	for _, ex := range program.Examples() {
		seeds = append(seeds, programDoc(f, ex.Text))
	}
	seeds = append(seeds, programDoc(f, chainProgram(40)))
	builtins, err := lesson.Builtins()
	if err != nil {
		f.Fatal(err)
	}
	for _, b := range builtins {
		doc, err := lesson.Encode(b.Lesson)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, doc)
	}
	for _, seed := range seeds {
		f.Add(seed, "abcdefghijklmnop")
	}
	f.Add([]byte("{}"), "../../etc/passwd")
	f.Add([]byte("{}"), "<script>")

	// The real index.html, without the stylesheet and scripts the server
	// writes into a page (inlineFirstPaint): they are the same in every
	// page, and a page without them stays under syncBrotliLimit, so that
	// each answer is encoded at once rather than queued in the background.
	index, err := os.ReadFile("../static/index.html")
	if err != nil {
		f.Fatal(err)
	}
	static := fstest.MapFS{"index.html": {Data: index, ModTime: modTime}}
	// A request waits for its drawing however long it takes (the server
	// waits DefaultFirstViewWait, then serves the undrawn page): what each
	// page holds must not depend on how busy the machine is.
	h, err := NewHandler(Options{Static: static, Store: newKVStore(&memKV{}), CacheDir: f.TempDir(), FirstView: firstview.Page, FirstViewWait: time.Hour})
	if err != nil {
		f.Fatal(err)
	}
	get := func(target string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
		return rec
	}
	own := get("/")
	if own.Code != http.StatusOK || !strings.Contains(own.Body.String(), `id="tape-preview"`) {
		f.Fatalf("GET /: %d, the default model's first view drawn: %v", own.Code, strings.Contains(own.Body.String(), `id="tape-preview"`))
	}
	playground := own.Body.String()

	serve := func(t *testing.T, method, target string, body []byte) *httptest.ResponseRecorder {
		req, err := http.NewRequest(method, target, bytes.NewReader(body))
		if err != nil {
			return nil
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code == http.StatusNotFound && !strings.HasPrefix(target, "/api/") {
			// A share page that names no share is the playground's page.
			if rec.Body.String() != playground {
				t.Fatalf("%s %s: 404 with body %.200q…, not the playground's page", method, target, rec.Body)
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
			stored := got.Body.Bytes()
			again := serve(t, "POST", "/api/share", stored)
			if again.Code != http.StatusCreated || !strings.Contains(again.Body.String(), created.ID) {
				t.Fatalf("reposting the stored document %q: %d %q, want 201 with id %s", stored, again.Code, again.Body, created.ID)
			}
			checkSharedPages(t, serve, index, created.ID, stored)
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

// checkSharedPages checks the pages of the share id, whose stored document
// is doc, against firstview.Page's drawing of it into index: each page is
// the drawing (the playground's page with doc embedded and, for a model or
// a program, its tape drawn in; a lesson's page draws none, the page opens
// its first stop), or index as it is when doc cannot be drawn (a model
// whose input fits no data the page has: the page then fetches doc and
// says why it cannot step it), and /embed/{id} is laid out as an embed.
func checkSharedPages(t *testing.T, serve func(*testing.T, string, string, []byte) *httptest.ResponseRecorder, index []byte, id string, doc []byte) {
	t.Helper()
	want, err := firstview.Page(index, doc)
	if err != nil {
		want = index
	} else {
		embedded := `<script type="application/json" id="shared-document">` + strings.ReplaceAll(string(doc), "<", `\u003c`) + "</script>"
		if !strings.Contains(string(want), embedded) {
			t.Fatalf("the first view of %q does not embed it", doc)
		}
		if drawsTape := !lesson.IsDocument(doc); strings.Contains(string(want), `id="tape-preview"`) != drawsTape {
			t.Fatalf("the first view of %q: tape drawn %v, want %v", doc, !drawsTape, drawsTape)
		}
	}
	for _, path := range []string{"/s/" + id, "/embed/" + id} {
		page := want
		if strings.HasPrefix(path, "/embed/") {
			page = embedded(want)
			if !bytes.Contains(page, []byte(`<html class="embed"`)) {
				t.Fatalf("GET %s of %q: not laid out as an embed", path, doc)
			}
		}
		rec := serve(t, "GET", path, nil)
		switch {
		case rec.Code != http.StatusOK:
			t.Fatalf("GET %s of %q: status %d", path, doc, rec.Code)
		case !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html"):
			t.Fatalf("GET %s of %q: Content-Type %q", path, doc, rec.Header().Get("Content-Type"))
		case !bytes.Equal(rec.Body.Bytes(), page):
			t.Fatalf("GET %s of %q: the page (%d bytes) is not the first view firstview.Page draws (%d bytes; drawing failed: %v)", path, doc, rec.Body.Len(), len(page), err != nil)
		}
	}
}

// programDoc returns the program document of src.
func programDoc(f *testing.F, src string) []byte {
	f.Helper()
	doc, err := program.EncodeDocument(src)
	if err != nil {
		f.Fatal(err)
	}
	return doc
}

// chainProgram returns x = param(1.0), a0 = x * 1 and n lines
// aN = aN-1 + x: every statement uses x, so the tape's edges from x pass
// every later column (issue 35's quadratic first view).
func chainProgram(n int) string {
	var b strings.Builder
	b.WriteString("x = param(1.0)\na0 = x * 1\n")
	for i := 1; i <= n; i++ {
		b.WriteString("a" + strconv.Itoa(i) + " = a" + strconv.Itoa(i-1) + " + x\n")
	}
	return b.String()
}
