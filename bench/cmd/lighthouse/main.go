// Command lighthouse serves the playground as `go run . serve` does (the
// static folder, precompressed, with its first view) and runs Lighthouse
// (bench/lighthouse, pinned with a lockfile) against its page in both of
// Lighthouse's presets, mobile (the default: a slow 4G network and a 4×
// slower CPU) and desktop, with Debian's Chromium. It prints one line per
// preset:
//
//	LIGHTHOUSE mobile performance 92 accessibility 100 best-practices 100 lcp-ms 2100 tbt-ms 180
//
// and, on standard error, every audit of those categories that did not
// pass, so that what to fix is named. ./build.sh bench runs it after
// `npm ci` in bench/lighthouse.
//
//	go run ./bench/cmd/lighthouse [-static static] [-chrome /usr/bin/chromium]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"tapelab/web"
	"tapelab/web/firstview"
)

func main() {
	static := flag.String("static", "static", "the playground's built static `folder`")
	chrome := flag.String("chrome", "/usr/bin/chromium", "the Chromium `binary` Lighthouse drives")
	lh := flag.String("lighthouse", "bench/lighthouse/node_modules/lighthouse/cli/index.js", "Lighthouse's command-line `script`")
	flag.Parse()
	if err := run(*static, *chrome, *lh); err != nil {
		fmt.Fprintln(os.Stderr, "lighthouse:", err)
		os.Exit(1)
	}
}

func run(static, chrome, lh string) error {
	h, err := web.NewHandler(web.Options{Static: os.DirFS(static), Precompress: true, FirstView: firstview.Page})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	url := "http://" + ln.Addr().String() + "/"
	// The wasm's brotli encoding is made in the background on a cold
	// cache: measure what a warm server sends.
	if err := waitBrotli(url+"tapelab.wasm", 5*time.Minute); err != nil {
		return err
	}
	for _, preset := range []string{"mobile", "desktop"} {
		rep, err := lighthouse(lh, chrome, url, preset)
		if err != nil {
			return err
		}
		score := func(c string) int { return int(rep.Categories[c].Score*100 + 0.5) }
		fmt.Printf("LIGHTHOUSE %s performance %d accessibility %d best-practices %d lcp-ms %.0f tbt-ms %.0f fcp-ms %.0f\n", preset,
			score("performance"), score("accessibility"), score("best-practices"),
			rep.Audits["largest-contentful-paint"].NumericValue, rep.Audits["total-blocking-time"].NumericValue,
			rep.Audits["first-contentful-paint"].NumericValue)
		for _, line := range rep.failed() {
			fmt.Fprintf(os.Stderr, "  %s: %s\n", preset, line)
		}
	}
	return nil
}

// report is the part of Lighthouse's JSON report this command reads.
type report struct {
	Categories map[string]struct {
		Score     float64
		AuditRefs []struct {
			ID     string
			Weight float64
		}
	}
	Audits map[string]struct {
		Title        string
		Score        *float64
		NumericValue float64
		DisplayValue string
	}
}

// failed lists the audits of the categories that scored below 1, each with
// its category, score and what it measured.
func (r *report) failed() []string {
	var out []string
	for name, c := range r.Categories {
		for _, ref := range c.AuditRefs {
			a := r.Audits[ref.ID]
			if a.Score == nil || *a.Score >= 1 {
				continue
			}
			if ref.Weight == 0 && *a.Score >= 0.9 {
				continue // a diagnostic that is fine
			}
			out = append(out, fmt.Sprintf("%s %s (score %.2f, weight %g) %s %s", name, ref.ID, *a.Score, ref.Weight, a.Title, a.DisplayValue))
		}
	}
	sort.Strings(out)
	return out
}

// lighthouse runs Lighthouse on url in preset and decodes its report.
func lighthouse(script, chrome, url, preset string) (*report, error) {
	if _, err := os.Stat(script); err != nil {
		return nil, fmt.Errorf("%w (run npm ci in %s)", err, filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(script)))))
	}
	args := []string{script, url, "--quiet", "--output=json", "--output-path=stdout",
		"--only-categories=performance,accessibility,best-practices",
		"--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"}
	if preset == "desktop" {
		args = append(args, "--preset=desktop")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Env = append(os.Environ(), "CHROME_PATH="+chrome)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("lighthouse %s: %w\n%s", preset, err, lastLines(stderr.String(), 20))
	}
	var rep report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		return nil, fmt.Errorf("lighthouse %s: its report: %w", preset, err)
	}
	if len(rep.Categories) == 0 {
		return nil, errors.New("lighthouse " + preset + ": the report has no categories")
	}
	return &rep, nil
}

// waitBrotli waits until url is served brotli'd.
func waitBrotli(url string, d time.Duration) error {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(time.Second) {
		req, err := http.NewRequest("HEAD", url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Accept-Encoding", "br")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.Header.Get("Content-Encoding") == "br" {
			return nil
		}
	}
	return fmt.Errorf("%s was not served brotli'd within %v", url, d)
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
