//go:build unix

package servertest

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tapelab/web/apitest"
)

// loadDuration is how long TestLoad runs; TAPELAB_LOAD_DURATION (a Go
// duration such as "5s") overrides it.
const loadDuration = 30 * time.Second

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
	d := loadDuration
	if s := os.Getenv("TAPELAB_LOAD_DURATION"); s != "" {
		var err error
		if d, err = time.ParseDuration(s); err != nil || d <= 0 {
			t.Fatalf("TAPELAB_LOAD_DURATION=%q: want a positive Go duration such as 30s", s)
		}
	}
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
