//go:build !js

// Package e2e holds TapeLab's end-to-end tests: they build the playground
// with `go run . build`, serve static/ with the real web handler on a free
// loopback port and drive the page in headless Chromium through chromedp.
//
// Without Chromium the tests skip; ./build.sh test installs Chromium first
// and sets TAPELAB_E2E=required, which turns a missing browser into a
// failure. The files carry `//go:build !js`: they start a browser process,
// which a js/wasm program cannot.
package e2e
