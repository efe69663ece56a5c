//go:build js && wasm

// Command worker is TapeLab's share service as a Cloudflare Worker: the
// share API and the shared-model pages of `go run . serve` (tapelab/web's
// NewShareHandler), with its shares in the Workers KV namespace bound as
// SHARES. Cloudflare serves the playground's static files itself (the
// assets folder in wrangler.jsonc); a request reaches this program only
// when no file matches it, as the share API, /s/{id} and /embed/{id} do.
// It links no static file server and no HTTP client, which keeps its wasm
// small enough for the free plan (a test in this folder checks the size).
//
// Build and run it with `./build.sh worker`, or in web/worker with
// `npm ci && npx wrangler dev`; see the README for deploying.
package main

import (
	"fmt"
	"io"
	"log"
	"net/http"

	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"
	"github.com/syumai/workers/cloudflare/fetch"
	"github.com/syumai/workers/cloudflare/kv"

	"tapelab/web"
)

// The bindings named in wrangler.jsonc: the KV namespace of the shares and
// the static assets.
const (
	sharesBinding = "SHARES"
	assetsBinding = "ASSETS"
)

func main() {
	workers.Serve(drained(web.NewShareHandler(web.KVStore{Open: openShares}, servePage)))
}

// drainLimit bounds how much of a request's body drained reads after the
// handler has answered.
const drainLimit = 1 << 20

// drained runs h, then reads what is left of the request's body (up to
// drainLimit bytes; a longer body is cancelled), so that a body the share
// API refuses unread (a 413) is taken from workerd before this request's
// Go instance exits. Left unread, the body stalls the connection: the next
// request on it waits a minute and more in wrangler dev. The answer has
// gone out by then; draining only delays the instance's exit.
func drained(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		if r.Body != nil {
			io.CopyN(io.Discard, r.Body, drainLimit)
			r.Body.Close()
		}
	})
}

// servePage answers with the playground's page, read through the ASSETS
// binding, and the status the share service chose. It calls fetch through
// the binding directly: an http.Client would link net/http's whole
// transport, TLS included, into the worker.
func servePage(w http.ResponseWriter, r *http.Request, status int) {
	// The host is ignored: the binding serves this worker's assets, and
	// "/" is the page.
	req, err := fetch.NewRequest(r.Context(), http.MethodGet, "https://assets.invalid/", nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	client := fetch.NewClient(fetch.WithBinding(cloudflare.GetBinding(assetsBinding)))
	resp, err := client.Do(req, &fetch.RequestInit{Redirect: fetch.RedirectModeFollow})
	if err == nil && resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		err = fmt.Errorf("the assets answered %s", resp.Status)
	}
	if err != nil {
		log.Printf("worker: reading the page for %s: %v", r.URL.Path, err)
		http.Error(w, "the playground's page could not be read", http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	if status == http.StatusOK {
		h.Set("Cache-Control", "no-cache")
	} else {
		h.Set("Cache-Control", "no-store")
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		io.Copy(w, resp.Body)
	}
}

// openShares opens the SHARES namespace. The worker's bindings exist only
// while a request runs, so this is called inside each request.
func openShares() (web.KV, error) {
	ns, err := kv.NewNamespace(sharesBinding)
	if err != nil {
		return nil, fmt.Errorf("KV binding %s (see wrangler.jsonc): %w", sharesBinding, err)
	}
	return namespace{ns}, nil
}

// namespace adapts a Workers KV namespace to web.KV.
type namespace struct{ ns *kv.Namespace }

func (n namespace) GetString(key string) (string, error) { return n.ns.GetString(key, nil) }

func (n namespace) PutString(key, value string) error { return n.ns.PutString(key, value, nil) }
