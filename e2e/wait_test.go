//go:build !js

package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The tests wait for what the page announces, not for a time: a slow
// machine makes them slower, not wrong. What the page announces:
//
//   - #playground data-redraws counts the playground's redraws (pgTab's
//     clickAndRedraw and key wait for it);
//   - <html> data-link-changes counts the changes of the state the share
//     link was told of, data-link-synced the count the last encoding took
//     in, and data-link-encodes the encodings (wasm/shell/linksync.go);
//   - #tape data-vw and data-vh are the size of the region the tape was
//     last fitted to (wasm/tape/fit.go), as #tape-preview's are for the
//     first view (static/firstview.js);
//   - #app data-rendered-ms marks the end of Go's start-up, <html>
//     data-link-opened the link's step drawn, #train-view data-steps the
//     training steps run.

// linkSyncedJS is true once the share link has caught up with every change
// of the state the page made so far.
const linkSyncedJS = `(d => d.linkChanges !== undefined && d.linkSynced === d.linkChanges)(document.documentElement.dataset)`

// fittedJS returns a JS expression that is true once the drawing svg (the
// tape, or the first view's) has been fitted to its region as the region
// is laid out now: a resize refits it by a frame later.
func fittedJS(svg string) string {
	return `(s => s !== null && s.dataset.vw !== undefined && +s.dataset.vw === s.getBoundingClientRect().width && +s.dataset.vh === s.getBoundingClientRect().height)(document.getElementById(` + jsString(svg) + `))`
}

// tapeFittedJS is fittedJS for the page's tape.
var tapeFittedJS = fittedJS("tape")

// waitTapeFitted waits until the tape has been fitted to its region as it
// is laid out now.
func waitTapeFitted(t testing.TB, tab context.Context) {
	t.Helper()
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](tapeFittedJS, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("waiting for the tape to fit its region: %v\n%s", err, pageError(tab))
	}
}

// waitFrame waits until the browser has run its next frame: the layout a
// change asked for is done, and the resize observers have run.
func waitFrame(t testing.TB, tab context.Context) {
	t.Helper()
	// Two: the first runs before that frame's layout, the second after it.
	const twoFrames = `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`
	if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](twoFrames, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("waiting for a frame: %v\n%s", err, pageError(tab))
	}
}
