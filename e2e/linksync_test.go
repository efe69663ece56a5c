//go:build !js

package e2e

import (
	"strconv"
	"testing"
	"time"

	"tapelab/wasm/app"
	"tapelab/wasm/link"
)

// TestLinkEncodedOnChange checks that the share link is encoded only after
// the state changed: never while the page sits idle, and once for a burst
// of steps, after the last one, carrying the position it left.
func TestLinkEncodedOnChange(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	const (
		encodes = `+(document.documentElement.dataset.linkEncodes || 0)`
		changes = `+(document.documentElement.dataset.linkChanges || 0)`
		synced  = `+(document.documentElement.dataset.linkSynced || 0)`
	)
	p.waitFor(linkSyncedJS+` && location.hash.startsWith("#v1.")`, "the first link")
	n, c := int(p.num(encodes)), int(p.num(changes))
	// An absence can only be watched for a while: longer than the
	// debouncer's longest wait (linkMaxWait, 1 s), in which a pending
	// change would have been encoded.
	time.Sleep(1500 * time.Millisecond)
	if idle := int(p.num(encodes)); idle != n {
		t.Fatalf("the link was encoded %d times while the page sat idle", idle-n)
	}
	if idle := int(p.num(changes)); idle != c {
		t.Fatalf("the page told the link of %d changes while it sat idle", idle-c)
	}

	// The clicks run one after another in one task, and Go handles each
	// click's change before the next: the page has been told of all of
	// them before the debouncer's quiet period can end.
	const steps = 5
	told := p.js(`(() => {
		const d = document.documentElement.dataset, told = [];
		for (let i = 0; i < 5; i++) {
			document.getElementById("step").click();
			told.push(d.linkChanges + "/" + (d.linkEncodes || 0));
		}
		return told.join(" ");
	})()`)
	want := ""
	for i := range steps {
		if i > 0 {
			want += " "
		}
		want += strconv.Itoa(c+i+1) + "/" + strconv.Itoa(n)
	}
	if told != want {
		t.Errorf("after each step the changes told/links encoded were %s, want %s: each step one change, no link yet", told, want)
	}
	p.waitFor(linkSyncedJS, "the link after the steps")
	if got, s := int(p.num(encodes)), int(p.num(synced)); got != n+1 || s != c+steps {
		t.Errorf("a burst of %d steps encoded the link %d times, the last taking in change %d; want once, taking in change %d", steps, got-n, s, c+steps)
	}
	st, err := link.Open(p.js(`location.hash`))
	if err != nil {
		t.Fatalf("the page's link does not open: %v", err)
	}
	ref := reference(t, app.DefaultDoc(), app.Modes{})
	for range steps {
		ref.Stepper().Step()
	}
	if want := link.PositionOf(ref.Stepper()); st.Pos != want {
		t.Errorf("the link's position is %+v, want %+v (after %d steps)", st.Pos, want, steps)
	}
}
