//go:build js && wasm

package dom

import (
	"syscall/js"
	"testing"

	"honnef.co/go/js/dom/v2"
)

// BenchmarkWrap measures what making a handle costs: dom/v2's wrappers,
// which compare the object's constructor with each element or event type
// they know (a call into JavaScript each), against this package's, which
// make the handle without asking (see Elem and Event).
func BenchmarkWrap(b *testing.B) {
	obj := js.Global().Call("eval", `({ constructor: Object, attrs: {} })`)
	b.Run("dom-v2-element", func(b *testing.B) {
		for range b.N {
			_ = dom.WrapHTMLElement(obj)
		}
	})
	b.Run("element", func(b *testing.B) {
		for range b.N {
			_ = wrap(obj)
		}
	})
	b.Run("dom-v2-event", func(b *testing.B) {
		for range b.N {
			_ = dom.WrapEvent(obj)
		}
	})
	b.Run("event", func(b *testing.B) {
		for range b.N {
			_ = event(obj)
		}
	})
}

// TestElemNone: the zero Elem and one made from null are none, and the
// methods that accept none do not call into JavaScript.
func TestElemNone(t *testing.T) {
	for _, e := range []Elem{{}, wrap(js.Null()), wrap(js.Undefined())} {
		if e.OK() || e.TagName() != "" || e.Closest("p").OK() || e.Contains(e) {
			t.Errorf("%v: none reads as an element", e)
		}
		e.Show(true)
		e.ToggleClass("x", true)
	}
}

// TestElemThroughDomV2: attributes, text and classes written through
// dom/v2's element reach the object.
func TestElemThroughDomV2(t *testing.T) {
	obj := js.Global().Call("eval", `({ attrs: {}, classes: new Set(), textContent: "",
		setAttribute(k, v) { this.attrs[k] = String(v); }, getAttribute(k) { return k in this.attrs ? this.attrs[k] : null; },
		removeAttribute(k) { delete this.attrs[k]; }, hasAttribute(k) { return k in this.attrs; },
		get classList() { const c = this.classes; return { add: x => c.add(x), remove: x => c.delete(x), contains: x => c.has(x) }; } })`)
	e := wrap(obj)
	e.SetAttribute("data-x", "1")
	e.SetTextContent("hello")
	e.AddClass("on")
	if got := e.GetAttribute("data-x"); got != "1" {
		t.Errorf("GetAttribute = %q, want 1", got)
	}
	if e.GetAttribute("absent") != "" || e.HasAttribute("absent") {
		t.Error("an absent attribute reads as present")
	}
	if e.TextContent() != "hello" || !e.HasClass("on") {
		t.Errorf("text %q, class on %v", e.TextContent(), e.HasClass("on"))
	}
	e.ToggleClass("on", false)
	e.Show(false)
	if e.HasClass("on") || !e.HasAttribute("hidden") {
		t.Error("ToggleClass or Show did not reach the element")
	}
}
