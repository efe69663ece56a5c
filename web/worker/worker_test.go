//go:build unix

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"tapelab/web/apitest"
	"tapelab/web/servertest"
)

// TestWorkerInWorkerd installs the pinned wrangler (npm ci), builds the
// worker, runs it in workerd with `wrangler dev --local` on loopback, and
// runs the share API suite against it: the same suite as the handler and
// the real server binary. It needs node and npm, and the npm registry or
// npm's cache for the install; it fails, never skips, without them.
func TestWorkerInWorkerd(t *testing.T) {
	for _, tool := range []string{"node", "npm", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the worker test needs %s on PATH: %v", tool, err)
		}
	}
	start := time.Now()
	npm := exec.Command("npm", "ci", "--no-audit", "--no-fund")
	if out, err := npm.CombinedOutput(); err != nil {
		t.Fatalf("npm ci: %v\n%s", err, out)
	}
	t.Logf("npm ci: %v", time.Since(start).Round(time.Millisecond))

	dev, err := startWrangler(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := dev.stop(); err != nil {
			t.Error(err)
		}
	}()
	t.Logf("wrangler dev (with the build) ready after %v", dev.ready.Round(time.Millisecond))

	docs, err := apitest.SpecDocs()
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Timeout: time.Minute}
	if err := apitest.Check(client, dev.url, docs); err != nil {
		t.Fatalf("the share API suite against the worker:\n%v\nwrangler's output:\n%s", err, dev.out.String())
	}
	// The playground's files come from Cloudflare's asset serving.
	resp, err := client.Get(dev.url + "/tapelab.wasm")
	if err != nil {
		t.Fatal(err)
	}
	n, _ := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/wasm" || n < 1000 {
		t.Errorf("GET /tapelab.wasm: %d, Content-Type %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), n)
	}
}

// wrangler is a running `wrangler dev`, leader of its own process group.
type wrangler struct {
	url   string
	cmd   *exec.Cmd
	out   *syncBuffer
	done  chan struct{}
	ready time.Duration
}

// startWrangler runs `wrangler dev --local` on a free loopback port with
// its KV state in the folder state, in a new session (as setsid does), so
// that stopping it can signal wrangler, esbuild and workerd together. It
// holds servertest's build lock until the worker answers, because the
// build writes static/.
func startWrangler(state string) (*wrangler, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ln.Close()
	unlock, err := servertest.LockBuild()
	if err != nil {
		return nil, err
	}
	defer unlock()

	began := time.Now()
	out := &syncBuffer{}
	cmd := exec.Command(filepath.Join("node_modules", ".bin", "wrangler"), "dev", "--local",
		"--ip", "127.0.0.1", "--port", port, "--persist-to", state,
		"--show-interactive-dev-session=false", "--log-level", "info")
	cmd.Env = append(os.Environ(), "WRANGLER_SEND_METRICS=false", "CI=true")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	w := &wrangler{url: "http://127.0.0.1:" + port, cmd: cmd, out: out, done: make(chan struct{})}
	logged := make(chan struct{})
	go func() { defer close(logged); io.Copy(out, pr) }()
	go func() { cmd.Wait(); pw.Close(); <-logged; close(w.done) }()

	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	client := &http.Client{Timeout: 5 * time.Second}
	for {
		resp, err := client.Get(w.url + "/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				w.ready = time.Since(began)
				return w, nil
			}
		}
		select {
		case <-w.done:
			return nil, fmt.Errorf("wrangler dev exited before answering:\n%s", out.String())
		case <-ctx.Done():
			w.stop()
			return nil, fmt.Errorf("wrangler dev did not answer within 6 minutes:\n%s", out.String())
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// stop sends SIGTERM to wrangler's whole process group, then SIGKILL if it
// is still there after 10 s, and checks that no process of the group is
// left.
func (w *wrangler) stop() error {
	pgid := w.cmd.Process.Pid
	syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-w.done:
	case <-time.After(10 * time.Second):
		syscall.Kill(-pgid, syscall.SIGKILL)
		<-w.done
	}
	for range 50 {
		if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
	return fmt.Errorf("processes of wrangler's group %d outlived SIGTERM and were killed", pgid)
}

// syncBuffer collects wrangler's output for error messages while it runs.
type syncBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.b = append(b.b, p...)
	return len(p), nil
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.b)
}
