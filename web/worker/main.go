//go:build js && wasm

// Command worker is TapeLab's share service as a Cloudflare Worker: the
// same handler as `go run . serve` (tapelab/web), with its shares in the
// Workers KV namespace bound as SHARES. Cloudflare serves the playground's
// static files itself (the assets folder in wrangler.jsonc); a request
// reaches this program only when no file matches it, as the share API,
// /s/{id} and /embed/{id} do.
//
// Build and run it with `./build.sh worker`, or in web/worker with
// `npm ci && npx wrangler dev`; see the README for deploying.
package main

import (
	"fmt"
	"net/http"
	"os"

	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare/kv"

	"tapelab/web"
)

// sharesBinding is the KV namespace binding named in wrangler.jsonc.
const sharesBinding = "SHARES"

func main() {
	h, err := web.NewHandler(web.Options{
		Static: assetsFS{},
		Store:  web.KVStore{Open: openShares},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		os.Exit(1)
	}
	workers.Serve(identityOnly(h))
}

// identityOnly makes h answer every request uncompressed. Cloudflare
// compresses a worker's responses itself; a body the handler had already
// compressed would be compressed a second time, because the runtime takes
// the Content-Encoding header as a request to encode.
func identityOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del("Accept-Encoding")
		h.ServeHTTP(w, r)
	})
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
