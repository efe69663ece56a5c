//go:build unix

package servertest

import (
	"fmt"
	"os"
	"testing"
)

// The real binary and the site it serves (see Build), made once by
// TestMain for every test of the package.
var (
	testSite string
	testBin  string
)

func TestMain(m *testing.M) {
	if url := os.Getenv(probeURLEnv); url != "" {
		os.Exit(probeMain(url)) // the probe process of startProbe
	}
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
	bin, site, err := Build(root, dir)
	if err != nil {
		return 0, err
	}
	testSite, testBin = site, bin
	return m.Run(), nil
}
