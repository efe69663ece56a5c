//go:build unix

package servertest

import (
	"fmt"
	"os"
	"testing"
)

// The real binary and the repository it serves, built once by TestMain
// for every test of the package.
var (
	testRoot string
	testBin  string
)

func TestMain(m *testing.M) {
	code, err := run(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "servertest:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

func run(m *testing.M) (int, error) {
	root, err := Root()
	if err != nil {
		return 0, err
	}
	dir, err := os.MkdirTemp("", "tapelab-servertest-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	bin, err := Build(root, dir)
	if err != nil {
		return 0, err
	}
	testRoot, testBin = root, bin
	return m.Run(), nil
}
