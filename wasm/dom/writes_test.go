//go:build js && wasm

package dom

import (
	"os"
	"strings"
	"syscall/js"
	"testing"
)

// loaderWrite returns the loader's tapelabWrite, taken from
// static/loader.js, counting its calls in calls.
func loaderWrite(t *testing.T, calls *int) js.Value {
	t.Helper()
	src, err := os.ReadFile("../../static/loader.js")
	if err != nil {
		t.Fatal(err)
	}
	const head = "globalThis.tapelabWrite = "
	s := string(src)
	i := strings.Index(s, head)
	n := strings.Index(s[i:], "\n  };\n")
	if i < 0 || n < 0 {
		t.Fatal("static/loader.js defines no tapelabWrite")
	}
	fn := js.Global().Call("eval", "("+s[i+len(head):i+n+4]+")")
	return js.FuncOf(func(_ js.Value, args []js.Value) any {
		*calls++
		return fn.Invoke(args[0], args[1])
	}).Value
}

// TestWrites applies the same writes through the loader's tapelabWrite
// (one call), without it (a call per write), and with a value holding the
// NUL that packing separates by, to stand-ins for elements; each way
// leaves the same attributes, texts and styles, and empties the writes.
func TestWrites(t *testing.T) {
	calls := 0
	packed := loaderWrite(t, &calls)
	nul := "a\x00b"
	for _, tt := range []struct {
		name   string
		writer js.Value
		text   string
		calls  int
	}{
		{"in one call", packed, "0.5", 1},
		{"a call per write", js.Undefined(), "0.5", 0},
		{"a NUL in a value", packed, nul, 0},
	} {
		calls = 0
		list := js.Global().Call("eval", `[0, 1, 2].map(() => ({ attrs: {}, textContent: "", firstChild: null,
			style: { props: {}, setProperty(k, v) { this.props[k] = v; } },
			setAttribute(k, v) { this.attrs[k] = String(v); } }))`)
		d := &Document{writer: tt.writer}
		var w Writes
		w.Attr(0, "class", "node hot")
		w.Text(1, "0.25")
		w.Style(2, "background", "#f4a")
		w.Text(1, tt.text)
		w.Attr(2, "title", "0.123456789")
		d.Write(Elems{list}, &w)
		if len(w.ops) != 0 {
			t.Errorf("%s: %d writes left after write", tt.name, len(w.ops))
		}
		if calls != tt.calls {
			t.Errorf("%s: tapelabWrite called %d times, want %d", tt.name, calls, tt.calls)
		}
		got := []string{
			list.Index(0).Get("attrs").Get("class").String(),
			list.Index(1).Get("textContent").String(),
			list.Index(2).Get("style").Get("props").Get("background").String(),
			list.Index(2).Get("attrs").Get("title").String(),
		}
		want := []string{"node hot", tt.text, "#f4a", "0.123456789"}
		for k := range want {
			if got[k] != want[k] {
				t.Errorf("%s: write %d left %q, want %q", tt.name, k, got[k], want[k])
			}
		}
	}
}

// TestElemsPush fills a list made by newElems as the tape fills its
// badges' (three at a time, as they are made): push returns each group's
// first index, and writes addressed by those indices reach their element.
func TestElemsPush(t *testing.T) {
	calls := 0
	d := &Document{writer: loaderWrite(t, &calls)}
	list := NewElems()
	stand := func() Elem {
		return wrap(js.Global().Call("eval", `({ attrs: {}, setAttribute(k, v) { this.attrs[k] = String(v); } })`))
	}
	var made [][3]Elem
	for g, want := range []int{0, 3, 6} {
		es := [3]Elem{stand(), stand(), stand()}
		if got := list.Push(es[:]...); got != want {
			t.Fatalf("group %d: push returned %d, want %d", g, got, want)
		}
		made = append(made, es)
	}
	var w Writes
	w.Attr(3+1, "width", "12.5")
	w.Attr(6, "visibility", "visible")
	d.Write(list, &w)
	if got := made[1][1].js().Get("attrs").Get("width").String(); got != "12.5" {
		t.Errorf("the second group's second element has width %q, want 12.5", got)
	}
	if got := made[2][0].js().Get("attrs").Get("visibility").String(); got != "visible" {
		t.Errorf("the third group's first element has visibility %q, want visible", got)
	}
	if got := made[0][1].js().Get("attrs").Get("width"); !got.IsUndefined() {
		t.Errorf("the first group's second element was written: width %v", got)
	}
}
