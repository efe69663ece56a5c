//go:build unix

package servertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

// probeURLEnv, set in its environment, makes this test binary the probe
// process (TestMain calls probeMain) instead of running tests.
const probeURLEnv = "TAPELAB_PROBE_URL"

// probeEveryEnv gives the probe process its interval, a Go duration.
const probeEveryEnv = "TAPELAB_PROBE_EVERY"

// probeProcess is a Probe running in a process of its own.
type probeProcess struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   bytes.Buffer
}

// startProbe runs Probe(url, every) in a process of its own (this test
// binary again), so that the clients of a load, which run in this one,
// do not delay it: its latencies are the server's and the network's.
func startProbe(url string, every time.Duration) (*probeProcess, error) {
	p := &probeProcess{cmd: exec.Command(os.Args[0])}
	p.cmd.Env = append(os.Environ(), probeURLEnv+"="+url, probeEveryEnv+"="+every.String())
	p.cmd.Stdout = &p.out
	p.cmd.Stderr = os.Stderr
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	return p, nil
}

// stop ends the probe and returns what it measured.
func (p *probeProcess) stop() (ProbeResult, error) {
	p.stdin.Close()
	if err := p.cmd.Wait(); err != nil {
		return ProbeResult{}, fmt.Errorf("the probe process: %w", err)
	}
	var r ProbeResult
	if err := json.Unmarshal(p.out.Bytes(), &r); err != nil {
		return ProbeResult{}, fmt.Errorf("the probe process's output %.200q: %w", p.out.Bytes(), err)
	}
	return r, nil
}

// probeMain is the probe process: it probes url every probeEveryEnv
// until its standard input is closed, then writes the ProbeResult as
// JSON to its standard output. It returns the exit status.
func probeMain(url string) int {
	every, err := time.ParseDuration(os.Getenv(probeEveryEnv))
	if err != nil || every <= 0 {
		fmt.Fprintf(os.Stderr, "probe: %s=%q: want a positive Go duration\n", probeEveryEnv, os.Getenv(probeEveryEnv))
		return 2
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		io.Copy(io.Discard, os.Stdin) // until the test closes it
		cancel()
	}()
	if err := json.NewEncoder(os.Stdout).Encode(Probe(ctx, url, every)); err != nil {
		fmt.Fprintln(os.Stderr, "probe:", err)
		return 1
	}
	return 0
}
