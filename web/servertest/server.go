//go:build unix

package servertest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Root returns the repository root: the folder of the go.mod the go tool
// uses from the working directory.
func Root() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("not inside a Go module")
	}
	return filepath.Dir(mod), nil
}

// Build compiles the tapelab command of the repository at root into the
// folder dir and lays out a site for it there: a folder with the
// repository's go.mod, go.sum and static files (and an empty wasm/), in
// which `tapelab serve` finds the playground's wasm up to date and so
// starts without compiling anything. The tests of the share service then
// do not depend on wasm/ compiling at the moment they run. When the
// repository has no tapelab.wasm yet (a fresh checkout), Build runs
// `tapelab build` first. It returns the binary and the site folder.
func Build(root, dir string) (bin, site string, err error) {
	bin = filepath.Join(dir, "tapelab")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("go build: %w\n%s", err, out)
	}
	static := filepath.Join(root, "static")
	// Hold the build lock while static/ is read, so that no build running
	// in another test package changes it under the copy.
	unlock, err := LockBuild()
	if err != nil {
		return "", "", err
	}
	defer unlock()
	if _, err := os.Stat(filepath.Join(static, "tapelab.wasm")); errors.Is(err, os.ErrNotExist) {
		cmd := exec.Command(bin, "build")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", "", fmt.Errorf("tapelab build: %w\n%s", err, out)
		}
	}
	site = filepath.Join(dir, "site")
	if err := os.MkdirAll(filepath.Join(site, "wasm"), 0o755); err != nil {
		return "", "", err
	}
	for _, f := range []string{"go.mod", "go.sum"} {
		if err := copyFile(filepath.Join(root, f), filepath.Join(site, f)); err != nil {
			return "", "", err
		}
	}
	if err := os.CopyFS(filepath.Join(site, "static"), os.DirFS(static)); err != nil {
		return "", "", fmt.Errorf("copying static/: %w", err)
	}
	// Newer than go.mod and go.sum, the only sources the site has.
	now := time.Now()
	if err := os.Chtimes(filepath.Join(site, "static", "tapelab.wasm"), now, now); err != nil {
		return "", "", err
	}
	return bin, site, nil
}

// copyFile copies the file src to dst, keeping its modification time.
func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	info, err := os.Stat(src)
	if err != nil {
		return err
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		return err
	}
	return os.Chtimes(dst, info.ModTime(), info.ModTime())
}

// Server is a running `tapelab serve`.
type Server struct {
	// URL is the server's base URL, such as "http://127.0.0.1:41234".
	URL string

	cmd  *exec.Cmd
	out  *syncBuffer
	done chan struct{} // closed when the process has exited
	err  error         // its exit status, once done is closed
}

// Start runs `bin serve -addr 127.0.0.1:<free port> -data data` in the
// folder site (see Build) and waits (up to timeout) until GET / answers
// 200.
func Start(bin, site, data string, timeout time.Duration) (*Server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	addr := net.JoinHostPort("127.0.0.1", port)
	out := &syncBuffer{}
	cmd := exec.Command(bin, "serve", "-addr", addr, "-data", data)
	cmd.Dir = site
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &Server{URL: "http://" + addr, cmd: cmd, out: out, done: make(chan struct{})}
	go func() { s.err = cmd.Wait(); close(s.done) }()
	if err := s.waitReady(timeout); err != nil {
		s.Kill()
		return nil, fmt.Errorf("%w; its output:\n%s", err, out.String())
	}
	return s, nil
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	_, port, err := net.SplitHostPort(ln.Addr().String())
	return port, err
}

func (s *Server) waitReady(timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	client := &http.Client{Timeout: 2 * time.Second}
	for {
		req, _ := http.NewRequestWithContext(ctx, "GET", s.URL+"/", nil)
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-s.done:
			return fmt.Errorf("the server exited before answering: %v", s.err)
		case <-ctx.Done():
			return fmt.Errorf("the server did not answer GET / within %v (last: %v)", timeout, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Kill sends SIGKILL and waits for the process to be gone.
func (s *Server) Kill() {
	s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.done
}

// Stop asks the server to shut down with SIGTERM and waits for it; it kills
// it if it has not exited after timeout. It returns the exit error.
func (s *Server) Stop(timeout time.Duration) error {
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
		return s.err
	case <-time.After(timeout):
		s.Kill()
		return fmt.Errorf("the server ignored SIGTERM for %v and was killed", timeout)
	}
}

// PeakRSS returns the most memory the server's process has held resident
// so far (VmHWM in /proc/PID/status), in bytes. It needs Linux's /proc.
func (s *Server) PeakRSS() (int64, error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(status), "\n") {
		value, ok := strings.CutPrefix(line, "VmHWM:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(value), "kB")), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/status: VmHWM: %w", s.cmd.Process.Pid, err)
		}
		return kb << 10, nil
	}
	return 0, fmt.Errorf("/proc/%d/status has no VmHWM", s.cmd.Process.Pid)
}

// Output returns what the server has printed so far.
func (s *Server) Output() string { return s.out.String() }

// syncBuffer is a bytes.Buffer safe for the process's two output streams
// and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// LockBuild takes a lock, shared by every process on this machine, that
// serialises builds of the repository's static/ folder: tests in several
// packages run at once, and two `tapelab build`s writing static/ at the
// same moment would share its temporary file. It waits for the lock and
// returns the function that releases it.
func LockBuild() (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(os.TempDir(), "tapelab-static-build.lock"), os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", f.Name(), err)
	}
	return func() { f.Close() }, nil
}
