// Package apitest checks a running TapeLab share service over HTTP, from
// the outside: the same suite runs against an httptest server, the real
// `tapelab serve` binary and the Cloudflare worker in workerd. It states
// the service's contract on its own (it does not import tapelab/web), so a
// change to the contract has to be made in both places.
package apitest

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
	"strings"
)

// MaxBody is the documented limit on POST /api/share bodies.
const MaxBody = 256 << 10

// idPattern is the documented form of a share id.
var idPattern = regexp.MustCompile(`^[a-z2-7]{16}$`)

// Docs are the model documents the suite posts.
type Docs struct {
	// Model is a valid model document in canonical form: GET must return
	// exactly these bytes.
	Model []byte
	// Variant is the same model written differently (spacing, key order):
	// it must get Model's id.
	Variant []byte
	// Other is a different valid model: it must get another id.
	Other []byte
	// Invalid is not a valid model; the 400 answer's error must contain
	// InvalidError (for example the JSON path of the fault).
	Invalid      []byte
	InvalidError string
}

// Check runs the whole suite against the service at base (such as
// "http://127.0.0.1:8080") and returns every failure, joined; nil means
// the service keeps its contract.
func Check(client *http.Client, base string, docs Docs) error {
	c := &checker{client: client, base: strings.TrimSuffix(base, "/")}
	c.run(docs)
	return errors.Join(c.errs...)
}

type checker struct {
	client *http.Client
	base   string
	errs   []error
}

func (c *checker) fail(format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf(format, args...))
}

// response is a finished exchange.
type response struct {
	what   string // "METHOD path", for messages
	status int
	header http.Header
	body   []byte
}

func (c *checker) do(method, path, contentType string, body []byte) *response {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	return c.send(method, path, contentType, rd)
}

// doStreamed sends body without declaring its length (chunked), so that
// the service learns the size only by reading.
func (c *checker) doStreamed(method, path, contentType string, body []byte) *response {
	return c.send(method, path, contentType, io.MultiReader(bytes.NewReader(body)))
}

func (c *checker) send(method, path, contentType string, rd io.Reader) *response {
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.fail("%s %s: %v", method, path, err)
		return nil
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		c.fail("%s %s: %v", method, path, err)
		return nil
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.fail("%s %s: reading the answer: %v", method, path, err)
		return nil
	}
	return &response{what: method + " " + path, status: resp.StatusCode, header: resp.Header, body: b}
}

// expect reports whether r has the status, failing otherwise.
func (c *checker) expect(r *response, status int) bool {
	if r == nil {
		return false
	}
	if r.status != status {
		c.fail("%s: status %d, want %d (body %.200q)", r.what, r.status, status, r.body)
		return false
	}
	return true
}

// expectType checks the media type of r's Content-Type.
func (c *checker) expectType(r *response, want string) {
	got, _, err := mime.ParseMediaType(r.header.Get("Content-Type"))
	if err != nil || got != want {
		c.fail("%s: Content-Type %q, want %s", r.what, r.header.Get("Content-Type"), want)
	}
}

// expectError checks that r is a JSON error of the one documented shape,
// {"error": "..."}, and returns its message.
func (c *checker) expectError(r *response, status int) string {
	if !c.expect(r, status) {
		return ""
	}
	c.expectType(r, "application/json")
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		c.fail("%s: error body %.200q is not JSON: %v", r.what, r.body, err)
		return ""
	}
	msg, ok := m["error"].(string)
	if len(m) != 1 || !ok || msg == "" {
		c.fail(`%s: error body %.200q is not {"error": "<message>"}`, r.what, r.body)
	}
	return msg
}

// tooLargeError is the documented answer to a body over MaxBody, whatever
// kind of document it holds.
var tooLargeError = fmt.Sprintf("the document is larger than the limit of %d KiB", MaxBody>>10)

// checkTooLarge posts bodies over MaxBody, a model's and a program's, with
// their length declared and streamed without one, and checks the 413
// answer names no kind of document it cannot know.
func (c *checker) checkTooLarge() {
	pad := strings.Repeat(" ", MaxBody)
	for _, body := range []string{
		`{"version": 1, "input": [2], "layers": []` + pad + `}`,
		`{"program": "x = param(1)` + pad + `"}`,
	} {
		for _, streamed := range []bool{false, true} {
			var r *response
			if streamed {
				r = c.doStreamed("POST", "/api/share", "application/json", []byte(body))
			} else {
				r = c.do("POST", "/api/share", "application/json", []byte(body))
			}
			if msg := c.expectError(r, http.StatusRequestEntityTooLarge); r != nil && msg != tooLargeError {
				c.fail("%s (%.12s…, streamed %v): error %q, want %q", r.what, body, streamed, msg, tooLargeError)
			}
		}
	}
}

// expectSecurityHeaders checks the headers every response carries; framed
// tells whether other sites may frame this one.
func (c *checker) expectSecurityHeaders(r *response, framed bool) {
	if r == nil {
		return
	}
	h := r.header
	if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
		c.fail("%s: X-Content-Type-Options %q, want nosniff", r.what, got)
	}
	if h.Get("Referrer-Policy") == "" {
		c.fail("%s: no Referrer-Policy", r.what)
	}
	csp := h.Get("Content-Security-Policy")
	directives := map[string]string{}
	for d := range strings.SplitSeq(csp, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		directives[name] = value
		for _, bad := range []string{"'unsafe-inline'", "'unsafe-eval'", "http:", "https:", "*."} {
			if strings.Contains(value, bad) {
				c.fail("%s: Content-Security-Policy allows %s in %q", r.what, bad, d)
			}
		}
	}
	// A page may also run its own inline scripts and styles, each by its
	// hash, and nothing else inline.
	inline := inlineHashes(r.body)
	for _, name := range []string{"script-src", "style-src"} {
		fields := strings.Fields(directives[name])
		kept := fields[:0]
		for _, f := range fields {
			if !strings.HasPrefix(f, "'sha256-") {
				kept = append(kept, f)
			} else if !inline[strings.TrimSuffix(name, "-src")+" "+f] {
				c.fail("%s: Content-Security-Policy's %s allows %s, the hash of no inline element of the answer", r.what, name, f)
			}
		}
		directives[name] = strings.Join(kept, " ")
	}
	want := map[string]string{
		"default-src":     "'none'",
		"script-src":      "'self' 'wasm-unsafe-eval'",
		"frame-ancestors": "'self'",
	}
	if framed {
		want["frame-ancestors"] = "*"
	}
	for name, value := range want {
		if directives[name] != value {
			c.fail("%s: Content-Security-Policy %q: %s is %q, want %q", r.what, csp, name, directives[name], value)
		}
	}
}

// inlineElement is an inline script or style element of a page.
var inlineElement = regexp.MustCompile(`(?s)<(script|style)(?: [^>]*)?>(.*?)</(?:script|style)>`)

// inlineHashes returns the CSP sources of the inline scripts and styles of
// body: "script 'sha256-…'" and "style 'sha256-…'".
func inlineHashes(body []byte) map[string]bool {
	hashes := map[string]bool{}
	for _, m := range inlineElement.FindAllSubmatch(body, -1) {
		sum := sha256.Sum256(m[2])
		hashes[string(m[1])+" 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'"] = true
	}
	return hashes
}

// post posts a document and returns the id of a 201 answer, checking its
// shape.
func (c *checker) post(doc []byte) string {
	r := c.do("POST", "/api/share", "application/json", doc)
	if !c.expect(r, http.StatusCreated) {
		return ""
	}
	c.expectType(r, "application/json")
	c.expectSecurityHeaders(r, false)
	var got struct{ ID, URL string }
	if err := json.Unmarshal(r.body, &got); err != nil {
		c.fail("%s: body %.200q: %v", r.what, r.body, err)
		return ""
	}
	if !idPattern.MatchString(got.ID) || got.URL != "/s/"+got.ID {
		c.fail(`%s: body %.200q, want {"id": <16 of a-z2-7>, "url": "/s/<id>"}`, r.what, r.body)
		return ""
	}
	return got.ID
}

func (c *checker) run(docs Docs) {
	id := c.post(docs.Model)
	if id == "" {
		return // everything else needs a stored share
	}
	if again := c.post(docs.Model); again != id {
		c.fail("posting the model twice gave ids %s and %s", id, again)
	}
	if v := c.post(docs.Variant); v != id {
		c.fail("the same model written differently got id %s, want %s", v, id)
	}
	if o := c.post(docs.Other); o == id {
		c.fail("a different model got the same id %s", id)
	}

	r := c.do("GET", "/api/share/"+id, "", nil)
	if c.expect(r, http.StatusOK) {
		c.expectType(r, "application/json")
		c.expectSecurityHeaders(r, false)
		if !bytes.Equal(r.body, docs.Model) {
			c.fail("%s: body %.200q, want the canonical model %.200q", r.what, r.body, docs.Model)
		}
	}
	home := c.do("GET", "/", "", nil)
	if c.expect(home, http.StatusOK) {
		c.expectType(home, "text/html")
		c.expectSecurityHeaders(home, false)
	}
	for _, page := range []struct {
		prefix string
		framed bool
	}{{"/s/", false}, {"/embed/", true}} {
		r := c.do("GET", page.prefix+id, "", nil)
		if c.expect(r, http.StatusOK) {
			c.expectType(r, "text/html")
			c.expectSecurityHeaders(r, page.framed)
			if home != nil && !samePage(r.body, home.body) {
				c.fail("%s: the body (%d bytes) is not the playground page GET / serves (%d bytes): its head differs", r.what, len(r.body), len(home.body))
			}
			if bytes.Contains(r.body, []byte(id)) {
				c.fail("%s: the page contains the id from the URL; nothing from the request may be written into HTML", r.what)
			}
		}
	}

	unknown := "aaaaaaaaaaaaaaaa"
	if unknown == id {
		unknown = "bbbbbbbbbbbbbbbb"
	}
	malformed := []string{"AAAAAAAAAAAAAAAA", "aaaa", id + "a", "aaaaaaaaaaaaaaa1", "%3Cscript%3Ealert(1)%3C%2Fscript%3E"}
	// The API answers an unknown id with a JSON 404 and a malformed one
	// with a JSON 400.
	r = c.do("GET", "/api/share/"+unknown, "", nil)
	c.expectError(r, http.StatusNotFound)
	c.expectSecurityHeaders(r, false)
	for _, bad := range malformed {
		r := c.do("GET", "/api/share/"+bad, "", nil)
		if msg := c.expectError(r, http.StatusBadRequest); strings.Contains(msg, "<") {
			c.fail("%s: error %q reflects markup", r.what, msg)
		}
	}
	// A share page whose link names no stored share (unknown, removed or
	// malformed) is the playground's page with status 404: the page then
	// opens its default model and says why.
	for _, page := range []struct {
		prefix string
		framed bool
	}{{"/s/", false}, {"/embed/", true}} {
		for _, bad := range append([]string{unknown, ""}, malformed...) {
			r := c.do("GET", page.prefix+bad, "", nil)
			if !c.expect(r, http.StatusNotFound) {
				continue
			}
			c.expectType(r, "text/html")
			c.expectSecurityHeaders(r, page.framed)
			if home != nil && !samePage(r.body, home.body) {
				c.fail("%s: the body (%d bytes) is not the playground page GET / serves (%d bytes): its head differs", r.what, len(r.body), len(home.body))
			}
		}
	}

	r = c.do("POST", "/api/share", "application/json", docs.Invalid)
	if msg := c.expectError(r, http.StatusBadRequest); r != nil && !strings.Contains(msg, docs.InvalidError) {
		c.fail("%s: error %q does not contain %q", r.what, msg, docs.InvalidError)
	}
	for _, body := range []string{"", "not json", "[1,2,3]", `{"truncated": `, "\xff\xfe"} {
		c.expectError(c.do("POST", "/api/share", "application/json", []byte(body)), http.StatusBadRequest)
	}
	c.checkTooLarge()

	for _, m := range []struct{ method, path, allow string }{
		{"GET", "/api/share", "POST"},
		{"PUT", "/api/share", "POST"},
		{"DELETE", "/api/share/" + id, "GET"},
		{"POST", "/api/share/" + id, "GET"},
		{"POST", "/s/" + id, "GET"},
	} {
		r := c.do(m.method, m.path, "", nil)
		c.expectError(r, http.StatusMethodNotAllowed)
		if r != nil && !strings.Contains(r.header.Get("Allow"), m.allow) {
			c.fail("%s: Allow %q, want it to name %s", r.what, r.header.Get("Allow"), m.allow)
		}
	}
	c.expectError(c.do("GET", "/api/nothing-here", "", nil), http.StatusNotFound)
}

// samePage reports whether two pages are the same playground page: the
// same head (styles, scripts, the wasm's preload), or the same bytes for a
// page without a <body> tag, an embed's class on <html> aside. Their
// bodies may differ by the first view the server drew into them (the shared model's
// tape on a share's page) and the shared document embedded in them.
func samePage(a, b []byte) bool {
	head := func(p []byte) []byte {
		// An embed's page is marked as one on its <html> element.
		p = bytes.Replace(p, []byte(`<html class="embed"`), []byte("<html"), 1)
		if i := bytes.Index(p, []byte("<body")); i >= 0 {
			return p[:i]
		}
		return p
	}
	return bytes.Equal(head(a), head(b))
}
