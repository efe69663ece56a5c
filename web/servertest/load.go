package servertest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/andybalholm/brotli"
)

// LoadConfig describes a load run against a share service.
type LoadConfig struct {
	// URL is the service's base URL.
	URL string
	// Clients is the number of concurrent clients, each with one request
	// in flight at a time.
	Clients int
	// Duration bounds the run; Requests, when positive, stops it after that
	// many requests in all instead.
	Duration time.Duration
	Requests int
	// PostFraction of the requests are POST /api/share, half of them with a
	// new document and half reposting a stored one (which must return the
	// same id); the rest are GET /api/share/{id} of a stored share, whose
	// body must equal the posted document.
	PostFraction float64
	// Doc returns the i-th distinct valid model document, in canonical
	// form. It is called concurrently.
	Doc func(i int) []byte
}

// LoadResult is what a load run measured.
type LoadResult struct {
	// Requests counts the answered requests, of which Posts were POSTs
	// and Gets GETs.
	Requests, Posts, Gets int
	// Errors counts transport errors, unexpected statuses and wrong
	// bodies; Failures holds the first few of them.
	Errors   int
	Failures []string
	Elapsed  time.Duration
	// Latency percentiles over all requests.
	P50, P99, Max time.Duration
}

// Throughput is the number of requests answered per second.
func (r LoadResult) Throughput() float64 {
	return float64(r.Requests) / r.Elapsed.Seconds()
}

// String summarises the run in one line.
func (r LoadResult) String() string {
	return fmt.Sprintf("%d requests (%d POST, %d GET) in %.1fs: %.0f req/s, latency p50 %v, p99 %v, max %v, %d errors",
		r.Requests, r.Posts, r.Gets, r.Elapsed.Seconds(), r.Throughput(), r.P50, r.P99, r.Max, r.Errors)
}

// shared is the state the clients of one run share: the stored shares.
type shared struct {
	cfg    LoadConfig
	client *http.Client
	next   atomic.Int64 // index of the next new document
	budget atomic.Int64 // requests left when cfg.Requests > 0

	mu     sync.RWMutex
	ids    []string          // stored ids, in order
	docs   map[string][]byte // id -> document
	docIdx []int             // ids[i] was posted as Doc(docIdx[i])

	failMu   sync.Mutex
	errors   int
	failures []string
}

// Load runs the load described by cfg and reports what it measured. It
// posts one document before starting the clock, so GETs always have a
// target.
func Load(ctx context.Context, cfg LoadConfig) (LoadResult, error) {
	tr := &http.Transport{MaxIdleConns: cfg.Clients, MaxIdleConnsPerHost: cfg.Clients}
	defer tr.CloseIdleConnections()
	s := &shared{cfg: cfg, client: &http.Client{Transport: tr, Timeout: 60 * time.Second}, docs: map[string][]byte{}}
	s.budget.Store(int64(cfg.Requests))
	if _, ok := s.post(ctx, int(s.next.Add(1)-1)); !ok {
		return LoadResult{}, fmt.Errorf("the first POST failed: %v", s.failures)
	}
	s.errors, s.failures = 0, nil
	if cfg.Duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.Duration)
		defer cancel()
	}
	type clientResult struct {
		lat         []time.Duration
		posts, gets int
	}
	results := make([]clientResult, cfg.Clients)
	start := time.Now()
	var wg sync.WaitGroup
	for c := range cfg.Clients {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(c), 1))
			res := &results[c]
			for ctx.Err() == nil {
				if cfg.Requests > 0 && s.budget.Add(-1) < 0 {
					return
				}
				t0 := time.Now()
				isPost := rng.Float64() < cfg.PostFraction
				var ok bool
				if isPost {
					ok = s.postOne(ctx, rng)
				} else {
					ok = s.getOne(ctx, rng)
				}
				if !ok && ctx.Err() != nil {
					// Cut off by the end of the run: not an answer.
					return
				}
				res.lat = append(res.lat, time.Since(t0))
				if isPost {
					res.posts++
				} else {
					res.gets++
				}
			}
		})
	}
	wg.Wait()
	r := LoadResult{Elapsed: time.Since(start), Errors: s.errors, Failures: s.failures}
	var lat []time.Duration
	for _, c := range results {
		lat = append(lat, c.lat...)
		r.Posts += c.posts
		r.Gets += c.gets
	}
	r.Requests = len(lat)
	r.P50, r.P99, r.Max = percentiles(lat)
	return r, nil
}

func (s *shared) fail(format string, args ...any) {
	s.failMu.Lock()
	defer s.failMu.Unlock()
	s.errors++
	if len(s.failures) < 10 {
		s.failures = append(s.failures, fmt.Sprintf(format, args...))
	}
}

// postOne posts a new document or reposts a stored one.
func (s *shared) postOne(ctx context.Context, rng *rand.Rand) bool {
	s.mu.RLock()
	n := len(s.ids)
	var want string
	idx := -1
	if n > 0 && rng.IntN(2) == 0 {
		k := rng.IntN(n)
		want, idx = s.ids[k], s.docIdx[k]
	}
	s.mu.RUnlock()
	if idx < 0 {
		idx = int(s.next.Add(1) - 1)
	}
	id, ok := s.post(ctx, idx)
	if ok && want != "" && id != want {
		s.fail("reposting document %d gave id %s, first %s", idx, id, want)
		return false
	}
	return ok
}

// post posts Doc(idx) and records its id.
func (s *shared) post(ctx context.Context, idx int) (string, bool) {
	doc := s.cfg.Doc(idx)
	req, err := http.NewRequestWithContext(ctx, "POST", s.cfg.URL+"/api/share", bytes.NewReader(doc))
	if err != nil {
		s.fail("POST: %v", err)
		return "", false
	}
	req.Header.Set("Content-Type", "application/json")
	body, status, err := s.do(req)
	if err != nil {
		if ctx.Err() == nil {
			s.fail("POST document %d: %v", idx, err)
		}
		return "", false
	}
	var created struct{ ID, URL string }
	if status != http.StatusCreated || json.Unmarshal(body, &created) != nil || created.ID == "" {
		s.fail("POST document %d: %d %.200q", idx, status, body)
		return "", false
	}
	s.mu.Lock()
	if _, seen := s.docs[created.ID]; !seen {
		s.ids = append(s.ids, created.ID)
		s.docIdx = append(s.docIdx, idx)
		s.docs[created.ID] = doc
	}
	s.mu.Unlock()
	return created.ID, true
}

// getOne reads a stored share and compares it with what was posted.
func (s *shared) getOne(ctx context.Context, rng *rand.Rand) bool {
	s.mu.RLock()
	id := s.ids[rng.IntN(len(s.ids))]
	want := s.docs[id]
	s.mu.RUnlock()
	req, err := http.NewRequestWithContext(ctx, "GET", s.cfg.URL+"/api/share/"+id, nil)
	if err != nil {
		s.fail("GET: %v", err)
		return false
	}
	body, status, err := s.do(req)
	if err != nil {
		if ctx.Err() == nil {
			s.fail("GET %s: %v", id, err)
		}
		return false
	}
	if status != http.StatusOK || !bytes.Equal(body, want) {
		s.fail("GET %s: %d %.200q, want 200 and the posted document", id, status, body)
		return false
	}
	return true
}

func (s *shared) do(req *http.Request) ([]byte, int, error) {
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return body, resp.StatusCode, err
}

// PageLoadConfig describes a load of page requests: Clients clients GET
// pages at once, client c Paths[(c+r)%len(Paths)] in round r, for Rounds
// rounds (a round starts when the last answer of the one before has
// come). Every request accepts brotli and gzip, as a browser does.
type PageLoadConfig struct {
	// URL is the server's base URL.
	URL     string
	Clients int
	Rounds  int
	Paths   []string
	// Check checks a 200 answer to a GET of path, given its headers and
	// decoded body, and names what it is (such as "drawn" or "undrawn").
	// It is called concurrently, once per path, ETag, encoding and
	// Content-Length; an answer that repeats all four is taken to be the
	// same once its length is counted.
	Check func(path string, h http.Header, body []byte) (kind string, err error)
}

// PageLoadResult is what a page load measured.
type PageLoadResult struct {
	// Requests counts the clients' answered requests; Kinds counts them
	// by path and by what Check named them.
	Requests int
	Kinds    map[string]map[string]int
	// Errors counts transport errors, unexpected statuses and answers
	// Check refused; Failures holds the first few.
	Errors   int
	Failures []string
	Elapsed  time.Duration
	// Latency percentiles of the clients' requests.
	P50, P99, Max time.Duration
}

// String summarises the run in one line.
func (r PageLoadResult) String() string {
	return fmt.Sprintf("%d page requests in %.1fs (p50 %v, p99 %v, max %v), %d errors",
		r.Requests, r.Elapsed.Seconds(), r.P50, r.P99, r.Max, r.Errors)
}

// pageLoad is the state the clients of one page load share.
type pageLoad struct {
	cfg    PageLoadConfig
	client *http.Client

	mu       sync.Mutex
	seen     map[answerKey]string // the kind of each answer checked
	errors   int
	failures []string
}

// answerKey tells answers apart for PageLoadConfig.Check.
type answerKey struct {
	path, etag, encoding string
	length               int
}

// PageLoad runs the load described by cfg and reports what it measured.
func PageLoad(ctx context.Context, cfg PageLoadConfig) (PageLoadResult, error) {
	if cfg.Clients < 1 || cfg.Rounds < 1 || len(cfg.Paths) == 0 || cfg.Check == nil {
		return PageLoadResult{}, fmt.Errorf("servertest: PageLoad needs clients, rounds, paths and a check")
	}
	tr := &http.Transport{MaxIdleConns: cfg.Clients, MaxIdleConnsPerHost: cfg.Clients}
	defer tr.CloseIdleConnections()
	l := &pageLoad{cfg: cfg, client: &http.Client{Transport: tr, Timeout: 2 * time.Minute}, seen: map[answerKey]string{}}
	type answer struct {
		path, kind string
		lat        time.Duration
	}
	answers := make([]answer, cfg.Clients*cfg.Rounds)
	start := time.Now()
	for round := range cfg.Rounds {
		var wg sync.WaitGroup
		for c := range cfg.Clients {
			wg.Go(func() {
				path := cfg.Paths[(c+round)%len(cfg.Paths)]
				t0 := time.Now()
				if kind, ok := l.get(ctx, path); ok {
					answers[round*cfg.Clients+c] = answer{path, kind, time.Since(t0)}
				}
			})
		}
		wg.Wait()
	}
	r := PageLoadResult{Elapsed: time.Since(start), Kinds: map[string]map[string]int{}, Errors: l.errors, Failures: l.failures}
	var lat []time.Duration
	for _, a := range answers {
		if a.path == "" {
			continue // failed
		}
		lat = append(lat, a.lat)
		if r.Kinds[a.path] == nil {
			r.Kinds[a.path] = map[string]int{}
		}
		r.Kinds[a.path][a.kind]++
	}
	r.Requests = len(lat)
	r.P50, r.P99, r.Max = percentiles(lat)
	return r, nil
}

// percentiles returns the median, the 99th percentile and the largest of
// lat, which it sorts; zeros when it is empty.
func percentiles(lat []time.Duration) (p50, p99, most time.Duration) {
	if len(lat) == 0 {
		return 0, 0, 0
	}
	slices.Sort(lat)
	return lat[len(lat)/2], lat[min(len(lat)-1, len(lat)*99/100)], lat[len(lat)-1]
}

func (l *pageLoad) fail(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errors++
	if len(l.failures) < 10 {
		l.failures = append(l.failures, fmt.Sprintf(format, args...))
	}
}

// get asks for path and returns what the check named the answer; false
// when it failed or the run ended under it. A body is read into memory
// and checked only when its path, ETag, encoding and length are new;
// otherwise it is read and counted, so that the clients' own work and
// garbage stay small beside the server's.
func (l *pageLoad) get(ctx context.Context, path string) (string, bool) {
	req, err := http.NewRequestWithContext(ctx, "GET", l.cfg.URL+path, nil)
	if err != nil {
		l.fail("GET %s: %v", path, err)
		return "", false
	}
	// Set by hand, the header keeps the transport from decoding gzip:
	// the body is decoded only when it is checked.
	req.Header.Set("Accept-Encoding", "br, gzip")
	resp, err := l.client.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			l.fail("GET %s: %v", path, err)
		}
		return "", false
	}
	defer resp.Body.Close()
	key := answerKey{path, resp.Header.Get("ETag"), resp.Header.Get("Content-Encoding"), int(resp.ContentLength)}
	l.mu.Lock()
	kind, seen := l.seen[key]
	l.mu.Unlock()
	if seen && resp.StatusCode == http.StatusOK {
		n, err := io.Copy(io.Discard, resp.Body)
		if err == nil && n != resp.ContentLength {
			err = fmt.Errorf("%d bytes of the %d its Content-Length gives", n, resp.ContentLength)
		}
		if err != nil {
			if ctx.Err() == nil {
				l.fail("GET %s: %v", path, err)
			}
			return "", false
		}
		return kind, true
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		if ctx.Err() == nil {
			l.fail("GET %s: %v", path, err)
		}
		return "", false
	}
	if resp.StatusCode != http.StatusOK {
		l.fail("GET %s: %d %.200q", path, resp.StatusCode, body)
		return "", false
	}
	decoded, err := decodeBody(key.encoding, body)
	if err == nil {
		kind, err = l.cfg.Check(path, resp.Header, decoded)
	}
	if err != nil {
		l.fail("GET %s (%s, ETag %s): %v", path, key.encoding, key.etag, err)
		return "", false
	}
	l.mu.Lock()
	l.seen[key] = kind
	l.mu.Unlock()
	return kind, true
}

// ProbeResult is what Probe measured.
type ProbeResult struct {
	// Latencies are those of the answered requests, in order.
	Latencies []time.Duration
	// Errors counts transport errors and answers other than 200;
	// Failures holds the first few.
	Errors   int
	Failures []string
}

// Percentiles returns the median, the 99th percentile and the largest
// of the latencies.
func (r ProbeResult) Percentiles() (p50, p99, most time.Duration) {
	return percentiles(slices.Clone(r.Latencies))
}

// Probe GETs url every interval, on a new connection each time (as a
// visitor's first request), until ctx is done, and times the answers.
// Run it in a process other than the load's, whose clients would
// otherwise delay it as much as the server does.
func Probe(ctx context.Context, url string, every time.Duration) ProbeResult {
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: time.Minute}
	tick := time.NewTicker(every)
	defer tick.Stop()
	var r ProbeResult
	fail := func(format string, args ...any) {
		r.Errors++
		if len(r.Failures) < 10 {
			r.Failures = append(r.Failures, fmt.Sprintf(format, args...))
		}
	}
	for {
		select {
		case <-ctx.Done():
			return r
		case <-tick.C:
		}
		req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
		if err != nil {
			fail("probe: %v", err)
			return r
		}
		req.Header.Set("Accept-Encoding", "br, gzip")
		t0 := time.Now()
		resp, err := client.Do(req)
		if err == nil {
			_, err = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		if err != nil {
			if ctx.Err() == nil {
				fail("probe GET %s: %v", url, err)
			}
			continue
		}
		if resp.StatusCode != http.StatusOK {
			fail("probe GET %s: %d", url, resp.StatusCode)
			continue
		}
		r.Latencies = append(r.Latencies, time.Since(t0))
	}
}

// decodeBody decodes a body sent with the Content-Encoding encoding.
func decodeBody(encoding string, body []byte) ([]byte, error) {
	switch encoding {
	case "":
		return body, nil
	case "gzip":
		r, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		return io.ReadAll(r)
	case "br":
		return io.ReadAll(brotli.NewReader(bytes.NewReader(body)))
	}
	return nil, fmt.Errorf("unknown Content-Encoding %q", encoding)
}
