//go:build unix

// Package workerdtest runs TapeLab's share worker (web/worker) in workerd,
// Cloudflare's runtime, for tests: Install runs `npm ci` for the pinned
// wrangler, and Start runs `wrangler dev --local` on a free loopback port
// in a session of its own (as setsid does), so that Stop can end wrangler,
// esbuild and workerd together by signalling the process group. Nothing
// leaves the machine: WRANGLER_SEND_METRICS=false, and the KV namespace
// lives in a local folder.
package workerdtest

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
	"time"

	"tapelab/web/servertest"
)

// Install runs `npm ci` in the worker's folder dir (web/worker), which
// installs the wrangler version package-lock.json pins.
func Install(dir string) error {
	for _, tool := range []string{"node", "npm", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("the worker needs %s on PATH: %w", tool, err)
		}
	}
	cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm ci in %s: %w\n%s", dir, err, out)
	}
	return nil
}

// Dev is a running `wrangler dev`, leader of its own process group.
type Dev struct {
	// URL is the worker's base URL, such as "http://127.0.0.1:41234".
	URL string
	// Ready is how long the build and the start-up took.
	Ready time.Duration

	cmd  *exec.Cmd
	out  *syncBuffer
	done chan struct{}
}

// Start runs `wrangler dev --local` for the worker in dir (after Install),
// with its KV state in the folder state, and waits up to timeout until
// GET / answers 200. Wrangler first runs the worker's build, which writes
// the repository's static/, so Start holds servertest's build lock until
// the worker answers.
func Start(dir, state string, timeout time.Duration) (*Dev, error) {
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
	cmd := exec.Command(filepath.Join("node_modules", ".bin", "wrangler"), "dev", "--local",
		"--ip", "127.0.0.1", "--port", port, "--persist-to", state,
		"--show-interactive-dev-session=false", "--log-level", "info")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "WRANGLER_SEND_METRICS=false", "CI=true")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	d := &Dev{URL: "http://127.0.0.1:" + port, cmd: cmd, out: &syncBuffer{}, done: make(chan struct{})}
	copied := make(chan struct{})
	go func() { defer close(copied); io.Copy(d.out, pr) }()
	go func() { cmd.Wait(); pw.Close(); <-copied; close(d.done) }()

	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	client := &http.Client{Timeout: 5 * time.Second}
	for {
		resp, err := client.Get(d.URL + "/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				d.Ready = time.Since(began)
				return d, nil
			}
		}
		select {
		case <-d.done:
			return nil, fmt.Errorf("wrangler dev exited before answering:\n%s", d.Output())
		case <-ctx.Done():
			d.Stop()
			return nil, fmt.Errorf("wrangler dev did not answer within %v:\n%s", timeout, d.Output())
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// Output returns what wrangler has printed so far.
func (d *Dev) Output() string { return d.out.String() }

// Stop sends SIGTERM to wrangler's whole process group, then SIGKILL if it
// has not exited after 10 s, and fails if a process of the group is left.
func (d *Dev) Stop() error {
	pgid := d.cmd.Process.Pid
	syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-d.done:
	case <-time.After(10 * time.Second):
		syscall.Kill(-pgid, syscall.SIGKILL)
		<-d.done
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

// syncBuffer collects wrangler's output while it runs.
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
