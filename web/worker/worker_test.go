//go:build unix

package main

import (
	"io"
	"net/http"
	"strings"
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
	client := &http.Client{Timeout: time.Minute}
	if err := apitest.Check(client, dev.URL, docs); err != nil {
		t.Fatalf("the share API suite against the worker:\n%v\nwrangler's output:\n%s", err, dev.Output())
	}
	// A body refused unread once stalled the next request on its
	// connection for a minute and more (the worker now drains it).
	pad := strings.Repeat(" ", apitest.MaxBody+1)
	for i := range 10 {
		for _, rd := range []io.Reader{strings.NewReader(pad), io.MultiReader(strings.NewReader(pad))} {
			resp, err := client.Post(dev.URL+"/api/share", "application/json", rd)
			if err != nil {
				t.Fatalf("round %d: POST /api/share over the limit: %v", i, err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestEntityTooLarge {
				t.Fatalf("round %d: POST /api/share over the limit: %s, want 413", i, resp.Status)
			}
		}
		resp, err := client.Get(dev.URL + "/api/share/aaaaaaaaaaaaaaaa")
		if err != nil {
			t.Fatalf("round %d: GET after the refused bodies: %v\nwrangler's output:\n%s", i, err, dev.Output())
		}
		resp.Body.Close()
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
