//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

// axeDir holds the pinned axe-core (package.json and package-lock.json);
// `npm ci` there installs it.
var axeDir = filepath.Join("axe")

var axeSource = sync.OnceValues(func() (string, error) {
	path := filepath.Join(axeDir, "node_modules", "axe-core", "axe.min.js")
	if _, err := os.Stat(path); err != nil {
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
		cmd.Dir = axeDir
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("npm ci in e2e/axe (installs axe-core): %w\n%s", err, out)
		}
	}
	b, err := os.ReadFile(path)
	return string(b), err
})

// axeRun asks axe-core for the page's violations of every rule it runs by
// default (WCAG 2 A and AA and its best practices), one line per element
// at fault.
const axeRun = `axe.run(document, {resultTypes: ["violations"]}).then(r => JSON.stringify(
	r.violations.flatMap(v => v.nodes.map(n => v.id + " (" + v.impact + ") " + n.target.join(" ") + ": " +
		(n.failureSummary || "").replace(/\s+/g, " ").slice(0, 240)))))`

// axeViolations injects axe-core into the page (once per document) and
// returns its violations.
func axeViolations(t testing.TB, tab context.Context) []string {
	t.Helper()
	src, err := axeSource()
	if err != nil {
		t.Fatalf("axe-core: %v", err)
	}
	has, err := chromedp.Run(tab, chromedp.Evaluate[bool](`typeof axe === "object"`))
	if err != nil {
		t.Fatalf("looking for axe: %v", err)
	}
	if !has {
		if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](src+"\n;true")); err != nil {
			t.Fatalf("injecting axe-core: %v", err)
		}
	}
	out, err := chromedp.Run(tab, chromedp.Evaluate[string](axeRun, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("running axe-core: %v", err)
	}
	var v []string
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("axe-core's answer %q: %v", out, err)
	}
	return v
}

// expectNoAxe fails the test with every violation axe-core finds in the
// page in the state named what.
func expectNoAxe(t testing.TB, tab context.Context, what string) {
	t.Helper()
	if v := axeViolations(t, tab); len(v) > 0 {
		t.Errorf("%s: axe-core finds %d violations:\n  %s", what, len(v), strings.Join(v, "\n  "))
	}
}
