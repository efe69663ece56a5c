package servertest

import (
	"bytes"
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
	if len(lat) > 0 {
		slices.Sort(lat)
		r.P50 = lat[len(lat)/2]
		r.P99 = lat[min(len(lat)-1, len(lat)*99/100)]
		r.Max = lat[len(lat)-1]
	}
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
