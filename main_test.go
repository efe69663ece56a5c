package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	tests := []struct {
		args       []string
		wantErr    string // "" means no error
		wantStdout []string
		wantStderr []string
	}{
		{args: []string{"help"}, wantStdout: []string{"serve", "build", "help", "no command means serve"}},
		{args: []string{"frobnicate"}, wantErr: `unknown command "frobnicate"`, wantStderr: []string{"serve", "build"}},
		{args: []string{"serve", "-h"}, wantErr: flag.ErrHelp.Error(), wantStderr: []string{"-addr", "HOST:PORT", defaultAddr}},
		{args: []string{"-h"}, wantErr: flag.ErrHelp.Error(), wantStderr: []string{"-addr"}},
		{args: []string{"serve", "-port", "1"}, wantErr: "flag provided but not defined: -port"},
		{args: []string{"serve", "now"}, wantErr: `serve takes no arguments, got ["now"]`},
		{args: []string{"build", "-x"}, wantErr: "flag provided but not defined: -x"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), tt.args, &stdout, &stderr)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("error %v, want none", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
			for _, want := range tt.wantStdout {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
				}
			}
			for _, want := range tt.wantStderr {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
				}
			}
		})
	}
}

func TestHelpIsNotAnError(t *testing.T) {
	err := run(context.Background(), []string{"build", "-h"}, new(bytes.Buffer), new(bytes.Buffer))
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("build -h: %v, want flag.ErrHelp (which main treats as success)", err)
	}
}

// TestCLIBinary builds the tapelab binary and runs it: a good grad exits 0
// with its JSON on stdout; bad data exits non-zero with the error on stderr.
func TestCLIBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "tapelab")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "grad", "-model", "internal/cli/testdata/mlp.json", "-data", "internal/cli/testdata/mlp_data.json")
	out, err := cmd.Output()
	if err != nil || !strings.HasPrefix(string(out), `{"loss": `) {
		t.Fatalf("grad: %v\n%s", err, out)
	}
	bad := filepath.Join(t.TempDir(), "D.json")
	if err := os.WriteFile(bad, []byte(`{"x": [[1, 2], [3]], "y": [[0], [1]]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(bin, "grad", "-model", "internal/cli/testdata/mlp.json", "-data", bad)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err = cmd.Output()
	if code := cmd.ProcessState.ExitCode(); err == nil || code == 0 {
		t.Fatalf("bad data: exit code %d, want non-zero", code)
	}
	if len(out) != 0 || !strings.Contains(stderr.String(), "D.json: x[1]: 1 numbers, x[0] has 2") {
		t.Errorf("bad data: stdout %q, stderr %q", out, stderr.String())
	}
}
