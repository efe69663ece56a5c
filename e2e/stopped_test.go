//go:build !js

package e2e

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapelab/engine/program"
	"tapelab/wasm/link"
	"tapelab/web"
	"tapelab/web/firstview"
)

// smallTabPages is the WebAssembly memory TestPageOutlivesItsDocument's
// tab allows, in 64 KiB pages (V8's --wasm-max-mem-pages): 32 MiB, as a
// small device's tab might have. The default model's page runs in 6.5 MB;
// bigProgram needs more than 70 MB.
const smallTabPages = "512"

// bigProgram holds three values of a million elements, and their
// gradients: about 6 million numbers, within TapeLab's work budget for a
// document (engine/budget.Default) but more than a tab of smallTabPages
// holds.
const bigProgram = "x = param(0.5)\nm = broadcast_to(x, shape=[1000, 1000])\na1 = m * m\na2 = a1 * m\n"

// TestPageOutlivesItsDocument opens a document that needs more memory than
// the tab has, as a link and as a short link, on the handler `go run .`
// serves (first views drawn, a share store). The Go program runs out of
// memory and stops; the page must say so in plain words, over the first
// view it dims and makes inert, with the technical report folded away,
// the link kept in the address bar, and a control that opens the default
// model, which must then work in the same tab. There a recovered panic (a
// browser API that throws under a click: the clipboard) must say so in
// the page, which goes on working.
func TestPageOutlivesItsDocument(t *testing.T) {
	tab := newBrowserWith(t, 120*time.Second, chromedp.Flag("js-flags", "--wasm-max-mem-pages="+smallTabPages))
	store := &memStore{docs: map[string][]byte{}}
	doc, err := program.EncodeDocument(bigProgram)
	if err != nil {
		t.Fatal(err)
	}
	id := web.ShareID(doc)
	if err := store.Put(context.Background(), id, doc); err != nil {
		t.Fatal(err)
	}
	h, err := web.NewHandler(web.Options{Static: os.DirFS(staticDir), Precompress: true, Store: store, FirstView: firstview.Page})
	if err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, h)
	frag, err := link.Encode(&link.State{Program: bigProgram})
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.EmulateViewport(1280, 720)); err != nil {
		t.Fatal(err)
	}
	p := &pgTab{t: t, tab: tab, size: "1280x720"}

	for _, c := range []struct{ name, url string }{
		{"link", srv.URL + "/#" + frag},
		{"short-link", srv.URL + "/s/" + id},
	} {
		t.Run(c.name, func(t *testing.T) {
			p.t = t
			if err := chromedp.Do(tab, chromedp.Navigate(c.url)); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(tab, 60*time.Second)
			defer cancel()
			if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS("#error.stopped"))); err != nil {
				t.Fatalf("waiting for the page to say the Go program stopped: %v\n%s", err, pageError(tab))
			}
			if got := text(t, tab, "#error .error-title"); got != "This document needed more memory than this tab has." {
				t.Errorf("the page says %q, want that the document needed more memory than the tab has", got)
			}
			// What a person reads is plain words: the report is in the
			// closed details, and it is Go's.
			said := p.js(`document.getElementById("error").innerText`)
			for _, raw := range []string{"goroutine", "exit code", "runtime.", "fatal error"} {
				if strings.Contains(said, raw) {
					t.Errorf("the page shows %q outside its technical details:\n%s", raw, said)
				}
			}
			if open := p.js(`document.querySelector("#error details").open`); open != "false" {
				t.Errorf("the technical details are open (%s), want them folded away", open)
			}
			if report := text(t, tab, "#error details pre"); !strings.Contains(report, "out of memory") {
				t.Errorf("the technical details say %q, want Go's out-of-memory report", report)
			}
			// The first view stays on screen, dimmed and inert: nothing in
			// it responds any more.
			if inert := p.js(`(app => app.classList.contains("stopped") && app.firstElementChild.id === "error" && [...app.children].every(e => e.id === "error" || e.inert))(document.getElementById("app"))`); inert != "true" {
				t.Errorf("the message is not first in the page's main element, over the rest dimmed and inert")
			}
			if got := p.js(`location.href`); got != c.url {
				t.Errorf("the address bar holds %q, want the link opened, %q", got, c.url)
			}
			if got := p.js(`document.activeElement.id`); got != "error-default" {
				t.Errorf("focus is on #%s, want it on the way back to the default model", got)
			}
			png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			saveScreenshot(t, "stopped-"+c.name, png)
			expectNoAxe(t, tab, "the page that stopped")
			// The link can be copied from the message (or, where the
			// browser refuses the clipboard, it says where to copy it).
			if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("error-copy"))); err != nil {
				t.Fatal(err)
			}
			p.waitFor(`["Link copied", "Copy it from the address bar"].includes(document.getElementById("error-copy").textContent)`, "the link copied")
			p.js(`document.querySelector("#error details").open = true`)
			if png, err = chromedp.Run(tab, chromedp.CaptureScreenshot()); err != nil {
				t.Fatal(err)
			}
			saveScreenshot(t, "stopped-"+c.name+"-details", png)
			// On a phone the message fits the screen's width.
			if err := chromedp.Do(tab, chromedp.EmulateViewport(390, 844)); err != nil {
				t.Fatal(err)
			}
			if wide := p.js(`document.getElementById("error").getBoundingClientRect().right <= innerWidth`); wide != "true" {
				t.Errorf("on a phone the message is wider than the screen")
			}
			if png, err = chromedp.Run(tab, chromedp.CaptureScreenshot()); err != nil {
				t.Fatal(err)
			}
			saveScreenshot(t, "stopped-"+c.name+"-390x844", png)
			if err := chromedp.Do(tab, chromedp.EmulateViewport(1280, 720)); err != nil {
				t.Fatal(err)
			}
		})
	}

	// Back to the default model: a page that works, in the same small tab.
	p.t = t
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("error-default"))); err != nil {
		t.Fatalf("clicking the way back to the default model: %v", err)
	}
	waitGo(t, tab)
	// The page writes its state into the link as it runs: the default's.
	if got := p.js(`location.pathname`); got != "/" {
		t.Errorf("the way back opened %q, want /", got)
	}
	if st, err := link.Open(p.js(`location.hash`)); err != nil {
		t.Errorf("the way back's link: %v", err)
	} else {
		sameState(t, st, link.Default())
	}
	if err := chromedp.Do(tab, chromedp.WaitVisible(chromedp.CSS("#tape [data-node]"))); err != nil {
		t.Fatalf("the default model's tape: %v\n%s", err, pageError(tab))
	}
	expectText(t, tab, "#error", "")
	before := p.js(`document.querySelector(".counters").textContent`)
	p.clickAndRedraw("step")
	if after := p.js(`document.querySelector(".counters").textContent`); after == before {
		t.Errorf("stepping the default model left its counters at %q", after)
	}

	// A panic the page recovers from: the clipboard API throws when the
	// link is copied. The page says so, the page works on.
	p.js(`(navigator.clipboard.writeText = () => { throw new Error("the clipboard is locked") }, true)`)
	click(t, tab, "#copy-link")
	p.waitFor(`document.getElementById("error").checkVisibility()`, "the page's error box")
	if got := text(t, tab, "#error .error-title"); got != "TapeLab hit an internal error." {
		t.Errorf("the page says %q after a recovered panic, want that TapeLab hit an internal error", got)
	}
	if report := text(t, tab, "#error details pre"); !strings.Contains(report, "the clipboard is locked") {
		t.Errorf("the technical details say %q, want the JavaScript error", report)
	}
	if stopped := p.js(`[...document.getElementById("app").children].some(e => e.inert)`); stopped != "false" {
		t.Errorf("the page is inert after a panic it recovered from")
	}
	png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	saveScreenshot(t, "stopped-recovered-panic", png)
	expectNoAxe(t, tab, "the page after a recovered panic")
	click(t, tab, "#error-dismiss")
	p.waitFor(`!document.getElementById("error").checkVisibility()`, "the error box dismissed")
	before = p.js(`document.querySelector(".counters").textContent`)
	p.clickAndRedraw("step")
	if after := p.js(`document.querySelector(".counters").textContent`); after == before {
		t.Errorf("after the recovered panic, stepping left the counters at %q", after)
	}
}
