//go:build !js

package e2e

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestShareOffersEmbedLinks replays a teacher who wants to put the default
// model on a course page, at a laptop's and a phone's size: Share offers
// "Short & embed links" though the model's link is short; pressing it
// shows the short link, the embed link and the iframe snippet, each with a
// copy button, and the embed link opens the same model in embed mode. When
// the share service fails, the page says so and the long link is kept.
// axe-core finds nothing in either state.
func TestShareOffersEmbedLinks(t *testing.T) {
	good := startServer(t, shareHandler(t))
	static := playgroundHandler(t)
	broken := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			http.Error(w, `{"error": "the share could not be stored; try again later"}`, http.StatusServiceUnavailable)
			return
		}
		static.ServeHTTP(w, r)
	}))
	for _, sc := range []screen{screens[4], screens[0]} {
		tab := newBrowserFor(t, 2*time.Minute)
		if err := chromedp.Do(tab, sc.emulate()); err != nil {
			t.Fatal(err)
		}
		openPage(t, tab, good.URL+"/")
		long := settledLink(t, tab)
		askForLinks(t, tab)
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`!document.getElementById("share-made").hidden`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Fatalf("%v: no short and embed links: %v (%s)", sc, err, eval[string](t, tab, `document.getElementById("share-notes").textContent`))
		}
		short := eval[string](t, tab, `document.getElementById("share-short").value`)
		embed := eval[string](t, tab, `document.getElementById("share-embed").value`)
		iframe := eval[string](t, tab, `document.getElementById("share-iframe").value`)
		id, _, _ := strings.Cut(strings.TrimPrefix(short, good.URL+"/s/"), "#")
		if len(id) != 16 || !strings.HasPrefix(embed, good.URL+"/embed/"+id) {
			t.Fatalf("%v: short link %q, embed link %q", sc, short, embed)
		}
		if !strings.HasPrefix(iframe, `<iframe src="`+embed+`"`) || !strings.HasSuffix(iframe, "</iframe>") {
			t.Errorf("%v: the iframe snippet %q does not frame %q", sc, iframe, embed)
		}
		if got := eval[string](t, tab, `document.getElementById("share-url").value`); got != long {
			t.Errorf("%v: the long link became %q", sc, got)
		}
		for _, f := range []string{"share-short", "share-embed", "share-iframe"} {
			if eval[bool](t, tab, `document.getElementById("`+f+`-copy").getBoundingClientRect().width === 0`) {
				t.Errorf("%v: #%s has no visible copy button", sc, f)
			}
		}
		click(t, tab, "#share-embed-copy")
		// The clipboard answers asynchronously: the notes say so a moment later.
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`(n => n.includes("Embed link copied") || n.includes("Ctrl+C"))(document.getElementById("share-notes").textContent)`, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
			t.Errorf("%v: after copying the embed link the notes say %q", sc, eval[string](t, tab, `document.getElementById("share-notes").textContent`))
		}
		shot(t, tab, "share-links-"+sc.String())
		expectNoAxe(t, tab, sc.String()+" share links")

		want := eval[string](t, tab, `tapelabExport("spec")`)
		openPage(t, tab, embed)
		if got := eval[string](t, tab, `tapelabExport("spec")`); got != want {
			t.Errorf("%v: the embed link opened\n%s\nwant\n%s", sc, got, want)
		}
		if !eval[bool](t, tab, `document.getElementById("share-url") === null || document.getElementById("share-url").getBoundingClientRect().width === 0`) {
			t.Errorf("%v: the embed link shows the share bar, not embed mode", sc)
		}

		openPage(t, tab, broken.URL+"/")
		long = settledLink(t, tab)
		askForLinks(t, tab)
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.getElementById("short-link").dataset.unavailable === "true"`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Fatalf("%v: a failing share service was not reported: %v", sc, err)
		}
		notes := eval[string](t, tab, `document.getElementById("share-notes").textContent`)
		if !strings.Contains(notes, "share service") || !strings.Contains(notes, "long link above works") || !strings.Contains(notes, "503") {
			t.Errorf("%v: a failing share service is reported as %q", sc, notes)
		}
		if !eval[bool](t, tab, `document.getElementById("share-made").hidden`) {
			t.Errorf("%v: links are offered though the share service failed", sc)
		}
		if got := eval[string](t, tab, `document.getElementById("share-url").value`); got != long {
			t.Errorf("%v: after the failure the long link is %q, want %q", sc, got, long)
		}
		shot(t, tab, "share-links-failed-"+sc.String())
		expectNoAxe(t, tab, sc.String()+" share service failed")
	}
}

// askForLinks opens Share (in the menu on a narrow screen) and presses
// "Short & embed links", which must be there whatever the link's length.
func askForLinks(t *testing.T, tab context.Context) {
	t.Helper()
	click(t, tab, ".share summary")
	if eval[bool](t, tab, `(b => b.hidden || b.getBoundingClientRect().width === 0)(document.getElementById("short-link"))`) {
		t.Fatalf("Share does not offer short and embed links for a %s-character link", eval[string](t, tab, `String(document.getElementById("share-url").value.length)`))
	}
	click(t, tab, "#short-link")
}
