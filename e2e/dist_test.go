//go:build !js

package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"tapelab/wasm/link"
	"tapelab/web/site"
)

// TestDistOffline lays out the static site as ./build.sh dist does (from
// the static folder TestMain built), serves it with a plain
// http.FileServer, opens it once, then cuts the network (the browser's
// offline emulation, the service worker's included, and the server shut
// down) and reloads: the service worker must serve the whole playground.
func TestDistOffline(t *testing.T) {
	chromium(t)
	dir := filepath.Join(t.TempDir(), "dist")
	start := time.Now()
	man, err := site.Write(os.DirFS(staticDir), dir, 5) // ./build.sh dist uses quality 11, which takes over a minute
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("site.Write took %v", time.Since(start).Round(time.Millisecond))
	tab := newBrowser(t)
	t.Logf("dist: %d files, cache version %s, wasm %s (%d B, %d B brotli)", len(man.Files), man.Version,
		man.Names["tapelab.wasm"], man.Files[man.Names["tapelab.wasm"]], man.Files[man.Names["tapelab.wasm"]+".br"])
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()

	// A link in the fragment works on a static host too.
	frag := fixtureLink(t, "mid-backward")
	openPage(t, tab, srv.URL+"/#"+frag)
	if msg := eval[string](t, tab, `document.getElementById("link-error").hidden ? "" : document.getElementById("link-error").textContent`); msg != "" {
		t.Fatalf("the static site could not open a v1 link: %s", msg)
	}
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`navigator.serviceWorker.controller !== null && document.documentElement.dataset.offlineReady === "true"`,
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the service worker did not take control: %v (offlineReady=%q)", err,
			eval[string](t, tab, `document.documentElement.dataset.offlineReady || ""`))
	}
	// The page writes its state back into the fragment with its own
	// encoder, whose bytes may differ from the fixture's: what must not
	// change offline is the state the link holds.
	before, err := link.Decode(settledLinkHash(t, tab))
	if err != nil {
		t.Fatalf("the page wrote a link that does not decode: %v", err)
	}

	// Short links need the share service: on a static host the page says
	// so, and the long link stays in the share box.
	other := newBrowser(t)
	openPage(t, other, srv.URL+"/?wide#"+wideLink(t))
	if _, err := chromedp.Run(other, chromedp.Poll[bool](linkSyncedJS, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the share link never caught up with the page: %v", err)
	}
	eval[bool](t, other, `document.querySelector(".share").open = true`)
	click(t, other, "#short-link")
	if _, err := chromedp.Run(other, chromedp.Poll[bool](`document.getElementById("share-notes").textContent.includes("share service")`,
		chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Errorf("no fallback message for a short link on a static host: %q", eval[string](t, other, `document.getElementById("share-notes").textContent`))
	}
	if v := eval[string](t, other, `document.getElementById("share-url").value`); !strings.Contains(v, "#v1.") {
		t.Errorf("the share box lost the long link: %q", v)
	}
	t.Logf("static host, short link: %s", eval[string](t, other, `document.getElementById("share-notes").textContent`))

	// Cut the network.
	srv.Close()
	cached, err := chromedp.Run(tab, chromedp.Evaluate[string](`caches.keys().then(k => Promise.all(k.map(n => caches.open(n).then(c => c.keys()).then(r => n + ": " + r.map(x => x.url).join(" ")))).then(a => a.join("; ")))`, chromedp.EvalAwaitPromise))
	t.Logf("cached: %s (%v)", cached, err)
	if _, err := chromedp.Call(tab, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(tab, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}},
	}); err != nil {
		t.Fatalf("emulating offline: %v", err)
	}
	if _, err := chromedp.Call(tab, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}); err != nil {
		t.Fatalf("overriding the network state: %v", err)
	}
	if online := eval[bool](t, tab, `navigator.onLine`); online {
		t.Error("navigator.onLine is still true")
	}
	if err := chromedp.Do(tab, chromedp.Reload()); err != nil {
		t.Fatalf("reloading offline: %v", err)
	}
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.documentElement.dataset.linkOpened === "true"`,
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("offline reload did not start the playground: %v\n%s", err, pageError(tab))
	}
	after, err := link.Decode(settledLinkHash(t, tab))
	if err != nil {
		t.Fatalf("offline, the page wrote a link that does not decode: %v", err)
	}
	sameState(t, after, before)
	if n := eval[int](t, tab, `document.querySelectorAll("#playground .tape-region svg [data-node]").length`); n == 0 {
		t.Error("offline: no tape drawn")
	}
	if s := eval[string](t, tab, `document.getElementById("error").hidden ? "" : document.getElementById("error").textContent`); s != "" {
		t.Errorf("offline: the page shows an error: %s", s)
	}
	if !strings.Contains(eval[string](t, tab, `tapelabExport("tape-text")`), "backward node 12") {
		t.Error("offline: the tape is not at the link's position (backward node 12)")
	}
}
