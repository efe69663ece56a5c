//go:build unix

package servertest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tapelab/web"
	"tapelab/web/apitest"
)

// crashReps is how many times TestCrashKeepsAcknowledgedShares kills the
// server; TAPELAB_CRASH_REPS overrides it.
const crashReps = 5

// TestCrashKeepsAcknowledgedShares runs the real server on one data folder,
// fires concurrent POSTs at it, kills it with SIGKILL mid-stream, restarts
// it, and checks that every share acknowledged with 201 (in this or any
// earlier round) reads back byte-identical, that no temporary file survives
// the restart, and that every file in the folder is a whole document under
// its own id.
func TestCrashKeepsAcknowledgedShares(t *testing.T) {
	reps := envInt(t, "TAPELAB_CRASH_REPS", crashReps)
	data := filepath.Join(t.TempDir(), "data")
	acked := map[string][]byte{} // every share acknowledged so far
	next := 1_000_000            // ModelDoc index of the next new document
	interrupted := 0             // temporary files found after kills
	rng := rand.New(rand.NewPCG(1, 2))
	for rep := 0; rep <= reps; rep++ {
		srv, err := Start(testBin, testSite, data, 2*time.Minute)
		if err != nil {
			t.Fatalf("round %d: %v", rep, err)
		}
		checkFolder(t, data, rep)
		checkAcked(t, srv.URL, acked, rep)
		if rep == reps {
			if err := srv.Stop(10 * time.Second); err != nil {
				t.Errorf("stopping the server: %v", err)
			}
			break
		}
		// Kill after a random number of acknowledgements, so that the kill
		// lands at a different point of the writers' cycle each round.
		killAfter := 20 + rng.IntN(200)
		got := fireAndKill(t, srv, &next, killAfter)
		for id, doc := range got {
			acked[id] = doc
		}
		n := countTemp(t, data)
		interrupted += n
		t.Logf("round %d: %d shares acknowledged before SIGKILL, %d temporary files left by it", rep, len(got), n)
	}
	t.Logf("%d rounds: %d acknowledged shares, 0 lost; %d interrupted writes cleaned up on restart", reps, len(acked), interrupted)
}

// fireAndKill posts new documents from many clients until killAfter of
// them are acknowledged, kills the server with SIGKILL while the others
// are in flight, and returns the acknowledged ones.
func fireAndKill(t *testing.T, srv *Server, next *int, killAfter int) map[string][]byte {
	const clients = 32
	var mu sync.Mutex
	acked := map[string][]byte{}
	enough := make(chan struct{})
	var once sync.Once
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			for ctx.Err() == nil {
				mu.Lock()
				doc := apitest.ModelDoc(*next)
				*next++
				mu.Unlock()
				id, err := post(ctx, client, srv.URL, doc)
				if err != nil {
					return // the server is gone
				}
				mu.Lock()
				acked[id] = doc
				if len(acked) >= killAfter {
					once.Do(func() { close(enough) })
				}
				mu.Unlock()
			}
		})
	}
	select {
	case <-enough:
	case <-time.After(time.Minute):
		t.Errorf("only %d shares acknowledged in a minute", len(acked))
	}
	srv.Kill()
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	return acked
}

// post posts doc and returns the id of a 201 answer.
func post(ctx context.Context, client *http.Client, base string, doc []byte) (string, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", base+"/api/share", bytes.NewReader(doc))
	if err != nil {
		return "", err
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	var created struct{ ID string }
	if resp.StatusCode != http.StatusCreated || json.Unmarshal(body, &created) != nil {
		return "", fmt.Errorf("POST: %d %q", resp.StatusCode, body)
	}
	return created.ID, nil
}

// checkAcked reads every acknowledged share back from the server.
func checkAcked(t *testing.T, base string, acked map[string][]byte, rep int) {
	t.Helper()
	lost := 0
	for id, doc := range acked {
		resp, err := http.Get(base + "/api/share/" + id)
		if err != nil {
			t.Fatalf("round %d: GET %s: %v", rep, id, err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || !bytes.Equal(body, doc) {
			lost++
			if lost <= 5 {
				t.Errorf("round %d: acknowledged share %s reads back %d %q, want 200 %q", rep, id, resp.StatusCode, body, doc)
			}
		}
	}
	if lost > 0 {
		t.Errorf("round %d: %d of %d acknowledged shares lost or damaged", rep, lost, len(acked))
	}
}

// checkFolder checks, after a restart, that the data folder holds no
// temporary files and only whole documents named by their id.
func checkFolder(t *testing.T, dir string, rep int) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("round %d: %v", rep, err)
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".tmp-") {
			t.Errorf("round %d: the temporary file %s survived the restart", rep, name)
			continue
		}
		doc, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("round %d: %v", rep, err)
			continue
		}
		if want := web.ShareID(doc) + ".json"; name != want {
			t.Errorf("round %d: %s holds %.80q, whose file name is %s: a partial or foreign file", rep, name, doc, want)
		}
	}
}

func countTemp(t *testing.T, dir string) int {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".tmp-") {
			n++
		}
	}
	return n
}

// envInt reads a positive whole number from the environment variable name,
// or returns def when it is unset.
func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a whole number ≥ 1", name, s)
	}
	return n
}
