package web

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// TestInlineFirstPaint writes the stylesheets and the parser-blocking
// scripts into the page, and leaves async and deferred scripts, files that
// are missing and files that would end their element early as links.
func TestInlineFirstPaint(t *testing.T) {
	fsys := fstest.MapFS{
		"style.css":    {Data: []byte("body { color: red }")},
		"fit.js":       {Data: []byte("fit();")},
		"closing.css":  {Data: []byte("a::after { content: '</STYLE>' }")},
		"loader.js":    {Data: []byte("load();")},
		"wasm_exec.js": {Data: []byte("go();")},
	}
	for _, tc := range []struct {
		page, want string
		inlined    []string
	}{
		{`<link rel="stylesheet" href="style.css"><p>x</p>`, `<style>body { color: red }</style><p>x</p>`, []string{"style.css"}},
		{`<p>x</p><script id="first-view-end" src="fit.js"></script>`, `<p>x</p><script id="first-view-end">fit();</script>`, []string{"fit.js"}},
		{`<script src="fit.js"></script>`, `<script>fit();</script>`, []string{"fit.js"}},
		{`<script src="loader.js" async fetchpriority="high"></script><script src="wasm_exec.js" defer></script>`,
			`<script src="loader.js" async fetchpriority="high"></script><script src="wasm_exec.js" defer></script>`, nil},
		{`<link rel="stylesheet" href="gone.css">`, `<link rel="stylesheet" href="gone.css">`, nil},
		{`<link rel="stylesheet" href="closing.css">`, `<link rel="stylesheet" href="closing.css">`, nil},
		{`<link rel="preload" href="style.css" as="style">`, `<link rel="preload" href="style.css" as="style">`, nil},
	} {
		got, inlined := inlineFirstPaint([]byte(tc.page), fsys)
		if string(got) != tc.want || !slices.Equal(inlined, tc.inlined) {
			t.Errorf("inlineFirstPaint(%q) = %q, %q; want %q, %q", tc.page, got, inlined, tc.want, tc.inlined)
		}
	}
}

// sha is the CSP source of text's SHA-256.
func sha(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// TestAllowInline adds the hash of each inline script and style to the
// policy's script-src and style-src, and nothing for a data block or a
// script loaded from a file.
func TestAllowInline(t *testing.T) {
	policy := "default-src 'none'; script-src 'self'; style-src 'self'; frame-ancestors 'self'"
	for _, tc := range []struct{ page, want string }{
		{`<p>no inline</p><script src="loader.js" async></script>`, policy},
		{`<style>a{}</style><p></p><script id="first-view-end">fit();
</script><script type="application/json" id="shared-document">{"a":1}</script>`,
			"default-src 'none'; script-src 'self' " + sha("fit();\n") + "; style-src 'self' " + sha("a{}") + "; frame-ancestors 'self'"},
		{`<script>a()</script><script>b()</script>`, "default-src 'none'; script-src 'self' " + sha("a()") + " " + sha("b()") + "; style-src 'self'; frame-ancestors 'self'"},
	} {
		if got := addSources(policy, inlineSources([]byte(tc.page))); got != tc.want {
			t.Errorf("the sources of %q:\n got %s\nwant %s", tc.page, got, tc.want)
		}
	}
}

// TestPageInlinesWhatItsFirstPaintWaitsFor serves the playground's page
// with its stylesheet and first-view script written in, under a policy
// that allows exactly them, and serves it again, changed, when the
// stylesheet changes.
func TestPageInlinesWhatItsFirstPaintWaitsFor(t *testing.T) {
	fsys := fstest.MapFS{
		"index.html": {Data: []byte(`<head><link rel="stylesheet" href="style.css"></head><body><script src="loader.js" async></script></body>`), ModTime: time.Unix(1, 0)},
		"style.css":  {Data: []byte("p { color: red }"), ModTime: time.Unix(1, 0)},
		"loader.js":  {Data: []byte("load();"), ModTime: time.Unix(1, 0)},
	}
	draw := func(index, doc []byte) ([]byte, error) {
		return []byte(strings.Replace(string(index), "<body>", `<body><p>view</p><script id="first-view-end" src="fit.js"></script>`, 1)), nil
	}
	fsys["fit.js"] = &fstest.MapFile{Data: []byte("fit();"), ModTime: time.Unix(1, 0)}
	h, err := NewHandler(Options{Static: fsys, CacheDir: t.TempDir(), FirstView: draw})
	if err != nil {
		t.Fatal(err)
	}
	get := func() (string, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
		return rec.Body.String(), rec.Header().Get("Content-Security-Policy")
	}
	body, csp := get()
	if want := `<head><style>p { color: red }</style></head><body><p>view</p><script id="first-view-end">fit();</script><script src="loader.js" async></script></body>`; body != want {
		t.Errorf("the page is\n%s\nwant\n%s", body, want)
	}
	for _, src := range []string{"script-src 'self' 'wasm-unsafe-eval' " + sha("fit();") + ";", "style-src 'self' " + sha("p { color: red }") + ";"} {
		if !strings.Contains(csp, src) {
			t.Errorf("the page's policy %q lacks %q", csp, src)
		}
	}
	fsys["style.css"] = &fstest.MapFile{Data: []byte("p { color: blue }"), ModTime: time.Unix(2, 0)}
	body, csp = get()
	if !strings.Contains(body, "<style>p { color: blue }</style>") || !strings.Contains(csp, sha("p { color: blue }")) {
		t.Errorf("after the stylesheet changed, the page is %s under %s", body, csp)
	}
}
