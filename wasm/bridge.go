//go:build js && wasm

package main

import (
	"errors"
	"strings"
	"syscall/js"
)

// The bridge is the JavaScript the page uses beyond the DOM handles of
// dom.go: the clock and performance marks, the location and history, the
// clipboard, fetch, files, downloads, animation frames, resize observers,
// media queries, pointer capture, SVG animations and canvas drawing. It is the only file besides dom.go that imports
// syscall/js.

// now is performance.now(), in ms since navigation.
func now() float64 { return js.Global().Get("performance").Call("now").Float() }

// mark records a start-up milestone as performance.mark("tapelab:"+name),
// for the page's performance timeline and the e2e start-up benchmark.
func mark(name string) {
	js.Global().Get("performance").Call("mark", "tapelab:"+name)
}

// devicePixelRatio is the screen's pixels per CSS pixel (at least 1).
func devicePixelRatio() float64 {
	return max(1, js.Global().Get("devicePixelRatio").Float())
}

// location is the page's URL, in parts.
type location struct{ path, search, hash, origin, href string }

func currentLocation() location {
	l := js.Global().Get("location")
	return location{l.Get("pathname").String(), l.Get("search").String(), l.Get("hash").String(),
		l.Get("origin").String(), l.Get("href").String()}
}

// replaceFragment replaces the history entry's fragment by frag (no new
// entry) and returns the full URL.
func replaceFragment(frag string) string {
	l := currentLocation()
	js.Global().Get("history").Call("replaceState", js.Null(), "", l.path+l.search+"#"+frag)
	return currentLocation().href
}

// copyToClipboard copies text (already selected in a text box, for the
// fallback) and calls done with whether it worked. done runs on the
// clipboard's answer, or at once where there is no clipboard API.
func copyToClipboard(doc *document, text string, done func(ok bool)) {
	clip := js.Global().Get("navigator").Get("clipboard")
	fallback := func() { done(doc.v.Call("execCommand", "copy").Bool()) }
	if !clip.Truthy() {
		fallback()
		return
	}
	var ok, fail js.Func
	ok = js.FuncOf(func(js.Value, []js.Value) any {
		ok.Release()
		fail.Release()
		recovered("clipboard", doc.report, func() { done(true) })
		return nil
	})
	fail = js.FuncOf(func(js.Value, []js.Value) any {
		ok.Release()
		fail.Release()
		recovered("clipboard", doc.report, fallback)
		return nil
	})
	clip.Call("writeText", text).Call("then", ok, fail)
}

// fetchText runs fetch(url) and waits for the answer; it must be called
// from a goroutine, never from an event handler.
func fetchText(method, url, body string) (int, string, error) {
	opts := map[string]any{"method": method}
	if body != "" {
		opts["body"] = body
		opts["headers"] = map[string]any{"Content-Type": "application/json"}
	}
	return fetchBody(url, opts, false)
}

// fetchBody runs fetch(url, opts) and returns the status and the body as
// text, decompressed as gzip when gunzip is set (and the status is 200).
func fetchBody(url string, opts map[string]any, gunzip bool) (int, string, error) {
	type answer struct {
		status int
		text   string
		err    error
	}
	ch := make(chan answer, 1)
	var onResp, onText, onErr js.Func
	status := 0
	onErr = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "the request failed"
		if len(args) > 0 && args[0].Truthy() {
			msg = args[0].Call("toString").String()
		}
		ch <- answer{err: errors.New(msg)}
		return nil
	})
	onText = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- answer{status: status, text: args[0].String()}
		return nil
	})
	onResp = js.FuncOf(func(_ js.Value, args []js.Value) any {
		r := args[0]
		status = r.Get("status").Int()
		if gunzip && status == 200 {
			body := r.Get("body").Call("pipeThrough", js.Global().Get("DecompressionStream").New("gzip"))
			r = js.Global().Get("Response").New(body)
		}
		r.Call("text").Call("then", onText, onErr)
		return nil
	})
	js.Global().Call("fetch", url, opts).Call("then", onResp, onErr)
	a := <-ch
	onResp.Release()
	onText.Release()
	onErr.Release()
	return a.status, a.text, a.err
}

// readFile reads the first file chosen in a file input as text and calls
// done with it; it reports false when the file is larger than limit bytes
// (and then calls nothing).
func readFile(doc *document, input elem, limit int, done func(text string)) (tooLarge bool) {
	files := input.v.Get("files")
	if files.Length() == 0 {
		return false
	}
	f := files.Index(0)
	if f.Get("size").Int() > limit {
		return true
	}
	var then js.Func
	then = js.FuncOf(func(_ js.Value, args []js.Value) any {
		then.Release()
		text := args[0].String()
		recovered("reading a file", doc.report, func() { done(text) })
		return nil
	})
	f.Call("text").Call("then", then)
	return false
}

// download saves text as a file called name.
func download(doc *document, text, name, mime string) {
	blob := js.Global().Get("Blob").New(js.ValueOf([]any{text}), map[string]any{"type": mime})
	url := js.Global().Get("URL").Call("createObjectURL", blob)
	a := doc.el("a", "href", url.String(), "download", name, "hidden", "")
	doc.body().AppendChild(a)
	a.Click()
	a.Remove()
	var revoke js.Func
	revoke = js.FuncOf(func(js.Value, []js.Value) any {
		revoke.Release()
		js.Global().Get("URL").Call("revokeObjectURL", url)
		return nil
	})
	js.Global().Call("setTimeout", revoke, 10000)
}

// standalone returns the markup of an SVG element with the page's style
// rules inlined, so that the file looks the same outside the page.
func standalone(doc *document, svg elem) string {
	clone := svg.v.Call("cloneNode", true)
	clone.Call("setAttribute", "xmlns", svgNS)
	var css strings.Builder
	sheets := doc.v.Get("styleSheets")
	for i := 0; i < sheets.Length(); i++ {
		rules := sheets.Index(i).Get("cssRules")
		for k := 0; k < rules.Length(); k++ {
			css.WriteString(rules.Index(k).Get("cssText").String())
			css.WriteByte('\n')
		}
	}
	style := doc.svg("style")
	style.SetTextContent(css.String())
	clone.Call("prepend", style.v)
	if box := svg.Rect(); box.Width > 0 {
		clone.Call("setAttribute", "width", box.Width)
		clone.Call("setAttribute", "height", box.Height)
	}
	return `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + js.Global().Get("XMLSerializer").New().Call("serializeToString", clone).String()
}

// expose makes fn callable from the page's console and tests as
// window[name](arg): it returns fn's text, or {error: message}.
func expose(doc *document, name string, fn func(arg string) (string, error)) {
	js.Global().Set(name, js.FuncOf(func(_ js.Value, args []js.Value) any {
		var out any
		recovered(name, doc.report, func() {
			if len(args) == 0 {
				return
			}
			s, err := fn(args[0].String())
			if err != nil {
				out = map[string]any{"error": err.Error()}
				return
			}
			out = s
		})
		return out
	}))
}

// mediaMatches reports whether the CSS media query q matches the page now.
func mediaMatches(q string) bool { return js.Global().Call("matchMedia", q).Get("matches").Bool() }

// nextFrame runs fn once the browser has laid the page out again.
func nextFrame(doc *document, what string, fn func()) {
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		f.Release()
		recovered(what, doc.report, fn)
		return nil
	})
	js.Global().Call("requestAnimationFrame", f)
}

// onResize calls fn whenever e changes size.
func onResize(doc *document, e elem, what string, fn func()) {
	ro := js.Global().Get("ResizeObserver").New(js.FuncOf(func(js.Value, []js.Value) any {
		recovered(what, doc.report, fn)
		return nil
	}))
	ro.Call("observe", e.v)
}

// canvas is a 2-D canvas of a size in CSS pixels, drawn at the screen's
// resolution.
type canvas struct {
	el     elem
	ctx    js.Value
	dashed *bool // the context's line dash is set (it is cleared only then)
}

// newCanvas returns a canvas of w × h CSS pixels with attributes.
func newCanvas(doc *document, w, h float64, attrs ...string) canvas {
	dpr := devicePixelRatio()
	e := doc.el("canvas", append([]string{"width", itoa(int(w * dpr)), "height", itoa(int(h * dpr))}, attrs...)...)
	c := canvas{el: e, ctx: e.v.Call("getContext", "2d"), dashed: new(bool)}
	c.ctx.Call("scale", dpr, dpr)
	return c
}

// pixels is an offscreen canvas of n × n pixels, painted from Go's bytes.
type pixels struct {
	n   int
	el  js.Value
	ctx js.Value
	img js.Value // its ImageData
	buf js.Value // Uint8Array over the ImageData's pixels
	// RGBA holds 4 bytes per pixel, row by row; Put copies them to the canvas.
	RGBA []byte
}

func newPixels(doc *document, n int) *pixels {
	e := doc.el("canvas", "width", itoa(n), "height", itoa(n))
	p := &pixels{n: n, el: e.v, ctx: e.v.Call("getContext", "2d"), RGBA: make([]byte, 4*n*n)}
	p.img = p.ctx.Call("createImageData", n, n)
	p.buf = js.Global().Get("Uint8Array").New(p.img.Get("data").Get("buffer"))
	return p
}

// put copies RGBA to the offscreen canvas.
func (p *pixels) put() {
	js.CopyBytesToJS(p.buf, p.RGBA)
	p.ctx.Call("putImageData", p.img, 0, 0)
}

// The drawing calls, named as in CanvasRenderingContext2D.
func (c canvas) clear(w, h float64)      { c.ctx.Call("clearRect", 0, 0, w, h) }
func (c canvas) beginPath()              { c.ctx.Call("beginPath") }
func (c canvas) moveTo(x, y float64)     { c.ctx.Call("moveTo", x, y) }
func (c canvas) lineTo(x, y float64)     { c.ctx.Call("lineTo", x, y) }
func (c canvas) rect(x, y, w, h float64) { c.ctx.Call("rect", x, y, w, h) }
func (c canvas) circle(x, y, r float64)  { c.ctx.Call("arc", x, y, r, 0, 6.283185307179586) }
func (c canvas) fill(colour string)      { c.ctx.Set("fillStyle", colour); c.ctx.Call("fill") }
func (c canvas) roundPen()               { c.ctx.Set("lineCap", "round"); c.ctx.Set("lineJoin", "round") }
func (c canvas) textAlign(a string)      { c.ctx.Set("textAlign", a) }
func (c canvas) alpha(a float64)         { c.ctx.Set("globalAlpha", a) }
func (c canvas) fillText(s string, x, y float64, colour, font string) {
	c.ctx.Set("fillStyle", colour)
	c.ctx.Set("font", font)
	c.ctx.Call("fillText", s, x, y)
}

// textWidth is the width of s drawn in font, in the canvas's units.
func (c canvas) textWidth(s, font string) float64 {
	c.ctx.Set("font", font)
	return c.ctx.Call("measureText", s).Get("width").Float()
}

// stroke strokes the path; dash, when given, is the line's dash pattern.
func (c canvas) stroke(colour string, width float64, dash ...any) {
	if len(dash) > 0 || *c.dashed {
		c.ctx.Call("setLineDash", js.ValueOf(append([]any{}, dash...)))
		*c.dashed = len(dash) > 0
	}
	c.ctx.Set("strokeStyle", colour)
	c.ctx.Set("lineWidth", width)
	c.ctx.Call("stroke")
}

// background fills the canvas (w × h) with colour.
func (c canvas) background(colour string, w, h float64) {
	c.ctx.Set("fillStyle", colour)
	c.ctx.Call("fillRect", 0, 0, w, h)
}

// drawPixels draws p scaled smoothly to w × h.
func (c canvas) drawPixels(p *pixels, w, h float64) {
	c.ctx.Set("imageSmoothingEnabled", true)
	c.ctx.Call("drawImage", p.el, 0, 0, w, h)
}

// capturePointer sends pointer id's further events to e until it is
// released (a finger lifted), so that a drag goes on outside e. A pointer
// the browser no longer knows (the finger lifted already) is left as it is.
func capturePointer(e elem, id int) {
	defer func() { _ = recover() }() // setPointerCapture throws for a pointer that is gone
	e.v.Call("setPointerCapture", id)
}

// mediaQuery is a CSS media query, evaluated whenever asked.
type mediaQuery struct{ v js.Value }

// newMediaQuery returns the media query q, e.g. "(prefers-reduced-motion: reduce)".
func newMediaQuery(q string) mediaQuery { return mediaQuery{js.Global().Call("matchMedia", q)} }

// matches reports whether the query holds now.
func (m mediaQuery) matches() bool { return m.v.Get("matches").Bool() }

// beginAnimation starts an SVG animation element (begin="indefinite") now.
func beginAnimation(e elem) { e.v.Call("beginElement") }

// after runs fn once, ms milliseconds from now (setTimeout: the page's
// clock, as the SVG animations it waits for keep it).
func after(doc *document, ms float64, what string, fn func()) {
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		f.Release()
		recovered(what, doc.report, fn)
		return nil
	})
	js.Global().Call("setTimeout", f, ms)
}

// afterPaint returns once the browser has painted a frame and then run
// the tasks that were waiting (a requestAnimationFrame, then a setTimeout
// of 0): what start-up made usable is on screen, and a click or key
// pressed meanwhile is answered, before the work that follows.
func afterPaint() {
	done := make(chan struct{})
	var frame, task js.Func
	task = js.FuncOf(func(js.Value, []js.Value) any {
		task.Release()
		close(done)
		return nil
	})
	frame = js.FuncOf(func(js.Value, []js.Value) any {
		frame.Release()
		js.Global().Call("setTimeout", task, 0)
		return nil
	})
	js.Global().Call("requestAnimationFrame", frame)
	<-done
}

// yieldToBrowser returns once the browser has run the tasks waiting for
// it (the loader's tapelabYield, a message the page posts to itself; a
// setTimeout of 0 without it): the Go program blocks meanwhile, so the
// page can paint and answer input between two parts of a long piece of
// work.
func yieldToBrowser() {
	done := make(chan struct{})
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		f.Release()
		close(done)
		return nil
	})
	if y := js.Global().Get("tapelabYield"); y.Type() == js.TypeFunction {
		y.Invoke(f)
	} else {
		js.Global().Call("setTimeout", f, 0)
	}
	<-done
}

// drawPixelsAt draws p at (x, y) as an s × s square, each pixel a sharp
// square (no smoothing).
func (c canvas) drawPixelsAt(p *pixels, x, y, s float64) {
	c.ctx.Set("imageSmoothingEnabled", false)
	c.ctx.Call("drawImage", p.el, x, y, s, s)
}
