package web

import (
	"net/http"
	"strings"
)

// The page's Content-Security-Policy, without its frame-ancestors part: the
// page's own scripts, styles and images and its wasm ('wasm-unsafe-eval'),
// fetches to its own origin, and nothing else. No remote origins, and no
// inline scripts or styles but those the server wrote into the page, each
// allowed by its hash on the page's answer (allowInline); base-uri 'self'
// lets the page use <base href="/">.
const pagePolicy = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; " +
	"style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; " +
	"worker-src 'self'; manifest-src 'self'; base-uri 'self'; form-action 'self'"

// securityHeaders returns the headers every response carries. Only embed
// responses (the /embed/{id} pages) may be framed by other sites; every
// other response may be framed only by the playground itself.
func securityHeaders(embed bool) [][2]string {
	h := [][2]string{
		{"X-Content-Type-Options", "nosniff"},
		{"Referrer-Policy", "no-referrer"},
		{"Cross-Origin-Opener-Policy", "same-origin"},
	}
	if embed {
		return append(h, [2]string{"Content-Security-Policy", pagePolicy + "; frame-ancestors *"})
	}
	return append(h,
		[2]string{"Content-Security-Policy", pagePolicy + "; frame-ancestors 'self'"},
		[2]string{"X-Frame-Options", "SAMEORIGIN"},
	)
}

// isEmbedPath reports whether path is an embed page, which other sites
// may frame.
func isEmbedPath(path string) bool {
	return strings.HasPrefix(path, "/embed/")
}

// withSecurityHeaders sets the security headers on every response of h,
// before h runs, so that error answers carry them too.
func withSecurityHeaders(h http.Handler) http.Handler {
	framed, unframed := securityHeaders(true), securityHeaders(false)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		set := unframed
		if isEmbedPath(r.URL.Path) {
			set = framed
		}
		hdr := w.Header()
		for _, kv := range set {
			hdr.Set(kv[0], kv[1])
		}
		h.ServeHTTP(w, r)
	})
}

// WorkersHeadersFile returns a Cloudflare `_headers` file that gives the
// worker's static assets, which Cloudflare serves without running the
// worker, the same security headers as withSecurityHeaders. Embed pages
// are not static assets (the worker serves them), so one rule covers all.
func WorkersHeadersFile() []byte {
	var b strings.Builder
	b.WriteString("# Generated from tapelab/web's security headers; do not edit.\n/*\n")
	for _, kv := range securityHeaders(false) {
		b.WriteString("  " + kv[0] + ": " + kv[1] + "\n")
	}
	return []byte(b.String())
}
