//go:build unix

package servertest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"tapelab/web/apitest"
)

// loadDuration is how long TestLoad runs; TAPELAB_LOAD_DURATION (a Go
// duration such as "5s") overrides it.
const loadDuration = 30 * time.Second

// pageLoadRounds is how many times TestSharedPagesUnderLoad's 50 clients
// ask for a page at once; TAPELAB_PAGE_LOAD_ROUNDS overrides it.
const pageLoadRounds = 10

// The bounds TestSharedPagesUnderLoad holds the server to.
const (
	maxServerRSS   = 1 << 30 // bytes resident at most, at any moment
	maxProbeP99    = 200 * time.Millisecond
	pageLoadClient = 50
	probeEvery     = 25 * time.Millisecond
)

// TestAPISuiteOnBinary runs the share API suite against the real server.
func TestAPISuiteOnBinary(t *testing.T) {
	srv, err := Start(testBin, testSite, filepath.Join(t.TempDir(), "data"), 2*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop(10 * time.Second)
	docs, err := apitest.SpecDocs()
	if err != nil {
		t.Fatal(err)
	}
	if err := apitest.Check(&http.Client{Timeout: 30 * time.Second}, srv.URL, docs); err != nil {
		t.Fatal(err)
	}
}

// TestLoad runs 200 concurrent clients mixing POST and GET against the real
// server on loopback and requires every answer to be right. It logs the
// throughput and latency percentiles (go test -v shows them).
func TestLoad(t *testing.T) {
	d := envDuration(t, "TAPELAB_LOAD_DURATION", loadDuration)
	srv, err := Start(testBin, testSite, filepath.Join(t.TempDir(), "data"), 2*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Load(context.Background(), LoadConfig{
		URL:          srv.URL,
		Clients:      200,
		Duration:     d,
		PostFraction: 0.2,
		Doc:          apitest.ModelDoc,
	})
	if stopErr := srv.Stop(10 * time.Second); stopErr != nil {
		t.Errorf("stopping the server: %v", stopErr)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("load, 200 clients, 20%% POST: %v", res)
	if res.Errors != 0 {
		t.Errorf("%d errors under load; the first: %q", res.Errors, res.Failures)
	}
	if res.Requests < 200 || res.Posts == 0 || res.Gets == 0 {
		t.Errorf("the load run made too few requests: %v", res)
	}
}

// BenchmarkLoad measures the real server under 200 concurrent clients
// (20% POST): b.N requests in all, reporting requests per second and the
// p50 and p99 latency.
//
//	go test ./web/servertest -run '^$' -bench Load -benchtime 20000x
func BenchmarkLoad(b *testing.B) {
	srv, err := Start(testBin, testSite, filepath.Join(b.TempDir(), "data"), 2*time.Minute)
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Stop(10 * time.Second)
	b.ResetTimer()
	res, err := Load(context.Background(), LoadConfig{
		URL:          srv.URL,
		Clients:      200,
		Requests:     b.N,
		PostFraction: 0.2,
		Doc:          apitest.ModelDoc,
	})
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	if res.Errors != 0 {
		b.Fatalf("%d errors: %q", res.Errors, res.Failures)
	}
	b.ReportMetric(res.Throughput(), "req/s")
	b.ReportMetric(float64(res.P50.Microseconds()), "p50-µs")
	b.ReportMetric(float64(res.P99.Microseconds()), "p99-µs")
}

// TestSharedPagesUnderLoad shares the dearest documents (HeavyDocs) on the
// real server and has 50 clients ask for their pages (/s/ and /embed/) at
// once, ten times over, while a probe in a process of its own asks for
// the playground's page, GET /, every 25 ms on a new connection. Every page must be the share's drawn first
// view or the undrawn page, each must be answered drawn at least once,
// the server's process must stay under 1 GiB resident throughout (its
// VmHWM), and GET / must answer within 200 ms at the 99th percentile.
func TestSharedPagesUnderLoad(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the server's peak memory is read from Linux's /proc")
	}
	rounds := envInt(t, "TAPELAB_PAGE_LOAD_ROUNDS", pageLoadRounds)
	srv, err := Start(testBin, testSite, filepath.Join(t.TempDir(), "data"), 2*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := srv.Stop(10 * time.Second); err != nil {
			t.Errorf("stopping the server: %v", err)
		}
	}()
	client := &http.Client{Timeout: 30 * time.Second}
	stored := map[string][]byte{} // the canonical document by page path
	var paths []string
	undrawn := map[string]bool{} // paths whose first view is too large to draw
	for _, h := range HeavyDocs() {
		id, err := post(context.Background(), client, srv.URL, h.Doc)
		if err != nil {
			t.Fatalf("%s: %v", h.Name, err)
		}
		doc, err := getBody(client, srv.URL+"/api/share/"+id)
		if err != nil {
			t.Fatalf("%s: %v", h.Name, err)
		}
		for _, p := range []string{"/s/" + id, "/embed/" + id} {
			stored[p] = doc
			paths = append(paths, p)
			undrawn[p] = h.Undrawn
		}
		t.Logf("%s: /s/%s", h.Name, id)
	}
	startRSS, err := srv.PeakRSS()
	if err != nil {
		t.Fatal(err)
	}
	probe, err := startProbe(srv.URL+"/", probeEvery)
	if err != nil {
		t.Fatal(err)
	}
	res, err := PageLoad(context.Background(), PageLoadConfig{
		URL:     srv.URL,
		Clients: pageLoadClient,
		Rounds:  rounds,
		Paths:   paths,
		Check: func(path string, h http.Header, body []byte) (string, error) {
			return checkSharedPage(path, stored[path], h, body)
		},
	})
	probed, probeErr := probe.stop()
	if err != nil {
		t.Fatal(err)
	}
	if probeErr != nil {
		t.Fatal(probeErr)
	}
	peak, err := srv.PeakRSS()
	if err != nil {
		t.Fatal(err)
	}
	p50, p99, most := probed.Percentiles()
	t.Logf("%d clients, %d rounds: %v", pageLoadClient, rounds, res)
	t.Logf("meanwhile GET / (%d probes): p50 %v, p99 %v, max %v", len(probed.Latencies), p50, p99, most)
	t.Logf("the server's peak resident memory: %d MiB before the load, %d MiB after it", startRSS>>20, peak>>20)
	for _, p := range paths {
		t.Logf("%s: %v", p, res.Kinds[p])
	}
	if res.Errors != 0 {
		t.Errorf("%d errors under load; the first: %q", res.Errors, res.Failures)
	}
	if probed.Errors != 0 {
		t.Errorf("GET / failed %d times under load; the first: %q", probed.Errors, probed.Failures)
	}
	if peak > maxServerRSS {
		t.Errorf("the server held %d MiB resident, over the bound of %d MiB", peak>>20, maxServerRSS>>20)
	}
	// The probe asks one at a time: a server that stalls answers it less
	// often.
	if want := int(res.Elapsed / probeEvery / 2); len(probed.Latencies) < want {
		t.Errorf("GET / answered %d times in %v, want at least %d (every %v)", len(probed.Latencies), res.Elapsed, want, probeEvery)
	}
	if p99 > maxProbeP99 {
		t.Errorf("GET / took %v at the 99th percentile under load, over the bound of %v", p99, maxProbeP99)
	}
	for _, p := range paths {
		switch {
		case undrawn[p] && res.Kinds[p]["drawn"] != 0:
			t.Errorf("%s was answered with a first view drawn, yet it is over the page's size cap (%v)", p, res.Kinds[p])
		case !undrawn[p] && res.Kinds[p]["drawn"] == 0:
			t.Errorf("%s was never answered with its first view drawn (%v)", p, res.Kinds[p])
		}
	}
}

// checkSharedPage checks a 200 answer to GET path, a shared page of the
// stored document doc: an HTML page that is either the share's first view
// with the document embedded ("drawn") or the page the wasm fills in
// ("undrawn"), laid out as an embed when path is an embed's.
func checkSharedPage(path string, doc []byte, h http.Header, body []byte) (string, error) {
	if ct := h.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		return "", fmt.Errorf("Content-Type %q, want text/html", ct)
	}
	if embed := bytes.Contains(body, []byte(`<html class="embed"`)); embed != strings.HasPrefix(path, "/embed/") {
		return "", fmt.Errorf("the page is laid out as an embed: %v", embed)
	}
	drawn := bytes.Contains(body, []byte(`<svg id="tape-preview"`))
	embedded := bytes.Contains(body, []byte(`<script type="application/json" id="shared-document">`+string(doc)+`</script>`))
	// Both have the loading section: the first view keeps the loader's
	// progress bar in its top bar.
	loading := bytes.Contains(body, []byte(`<section id="loading"`))
	switch {
	case drawn && embedded && loading:
		return "drawn", nil
	case loading && !drawn:
		return "undrawn", nil
	}
	return "", fmt.Errorf("neither the first view of the share (a tape: %v, the document: %v) nor the undrawn page (a loading section: %v); %d bytes", drawn, embedded, loading, len(body))
}

// getBody returns the body of a 200 answer to GET url.
func getBody(client *http.Client, url string) ([]byte, error) {
	resp, err := client.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %d %.200q", url, resp.StatusCode, body)
	}
	return body, nil
}

// envDuration reads a positive Go duration such as "5s" from the
// environment variable name, or returns def when it is unset.
func envDuration(t *testing.T, name string, def time.Duration) time.Duration {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		t.Fatalf("%s=%q: want a positive Go duration such as 30s", name, s)
	}
	return d
}
