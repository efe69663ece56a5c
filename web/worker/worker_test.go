//go:build unix

package main

import (
	"io"
	"net/http"
	"testing"
	"time"

	"tapelab/web/apitest"
	"tapelab/web/worker/workerdtest"
)

// TestWorkerInWorkerd installs the pinned wrangler (npm ci), builds the
// worker, runs it in workerd with `wrangler dev --local` on loopback, and
// runs the share API suite against it: the same suite as the handler and
// the real server binary. It needs node and npm, and the npm registry or
// npm's cache for the install; it fails, never skips, without them.
func TestWorkerInWorkerd(t *testing.T) {
	start := time.Now()
	if err := workerdtest.Install("."); err != nil {
		t.Fatal(err)
	}
	t.Logf("npm ci: %v", time.Since(start).Round(time.Millisecond))

	dev, err := workerdtest.Start(".", t.TempDir(), 6*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := dev.Stop(); err != nil {
			t.Error(err)
		}
	}()
	t.Logf("wrangler dev (with the build) ready after %v", dev.Ready.Round(time.Millisecond))

	docs, err := apitest.SpecDocs()
	if err != nil {
		t.Fatal(err)
	}
	// wrangler dev may reload the worker while the suite runs; its proxy
	// then asks for a request with a body to be sent again, which a few
	// times in a run is the development server's doing, not the worker's.
	retry := &workerdtest.RetryTransport{Limit: 3}
	client := &http.Client{Timeout: time.Minute, Transport: retry}
	if err := apitest.Check(client, dev.URL, docs); err != nil {
		t.Fatalf("the share API suite against the worker:\n%v\nwrangler's output:\n%s", err, dev.Output())
	}
	if r := retry.Retried(); len(r) > 0 {
		t.Logf("sent again after wrangler's proxy said the worker restarted: %v", r)
	}
	// The playground's files come from Cloudflare's asset serving.
	resp, err := client.Get(dev.URL + "/tapelab.wasm")
	if err != nil {
		t.Fatal(err)
	}
	n, _ := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/wasm" || n < 1000 {
		t.Errorf("GET /tapelab.wasm: %d, Content-Type %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), n)
	}
}
