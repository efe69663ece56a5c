//go:build !js

package e2e

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestUnknownShareBanner opens, as a person who mistyped a link would, a
// share link whose id is not a share id at all (/s/doesnotexist, which the
// share API refuses with 400) and one whose id is well formed but unknown
// (404), at a laptop's and a phone's size: each page answers 404, and its
// banner says that no shared model has this id, never the bare status the
// share API answered. axe-core finds nothing in either state.
func TestUnknownShareBanner(t *testing.T) {
	_, h := fileStoreHandler(t)
	srv := startServer(t, h)
	for _, sc := range []screen{screens[4], screens[0]} {
		tab := newBrowser(t)
		if err := chromedp.Do(tab, sc.emulate()); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ path, id, more string }{
			{"/s/doesnotexist", "doesnotexist", "not a share id"},
			{"/embed/aaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaaa", "mistyped link"},
		} {
			openPage(t, tab, srv.URL+c.path)
			status := eval[int](t, tab, `performance.getEntriesByType("navigation")[0].responseStatus`)
			msg := eval[string](t, tab, `document.getElementById("link-error").hidden ? "" : document.getElementById("link-error").textContent`)
			if status != http.StatusNotFound {
				t.Errorf("%v %s: answered %d, want 404", sc, c.path, status)
			}
			if !strings.Contains(msg, "no shared model has the id "+c.id) || !strings.Contains(msg, c.more) {
				t.Errorf("%v %s: the banner says %q, want that no shared model has the id %s (%s)", sc, c.path, msg, c.id, c.more)
			}
			if strings.Contains(msg, "answered 4") {
				t.Errorf("%v %s: the banner says %q: a bare status code", sc, c.path, msg)
			}
			shot(t, tab, "share-banner-"+sc.String()+"-"+strings.ReplaceAll(strings.Trim(c.path, "/"), "/", "-"))
			expectNoAxe(t, tab, sc.String()+" "+c.path)
		}
	}
}
