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
// of steps, carrying the position after the last one.
func TestLinkEncodedOnChange(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	const encodes = `+(document.documentElement.dataset.linkEncodes || 0)`
	p.waitFor(encodes+` > 0 && location.hash.startsWith("#v1.")`, "the first link")
	time.Sleep(time.Second) // let the start-up's changes settle
	n := int(p.num(encodes))
	time.Sleep(1500 * time.Millisecond)
	if idle := int(p.num(encodes)); idle != n {
		t.Fatalf("the link was encoded %d times while the page sat idle", idle-n)
	}

	const steps = 5
	p.js(`(() => { for (let i = 0; i < 5; i++) document.getElementById("step").click(); return true; })()`)
	p.waitFor(encodes+` > `+strconv.Itoa(n), "the link after the steps")
	time.Sleep(time.Second)
	if got := int(p.num(encodes)); got != n+1 {
		t.Errorf("a burst of %d steps encoded the link %d times, want once", steps, got-n)
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
