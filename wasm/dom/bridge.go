//go:build js && wasm

package dom

import (
	"errors"
	"strconv"
	"strings"
	"syscall/js"
)

// The bridge is the JavaScript the page uses beyond elements and events:
// the clock and performance marks, the location and history, the
// clipboard, fetch, files, downloads, animation frames, resize observers,
// media queries, pointer capture, SVG animations and canvas drawing, none
// of which dom/v2 covers (its window has no fetch, clipboard, matchMedia
// or ResizeObserver; its canvas context sets one property per call as
// this file does).

// Now is performance.Now(), in ms since navigation.
func Now() float64 { return js.Global().Get("performance").Call("now").Float() }

// Mark records a start-up milestone as performance.Mark("tapelab:"+name),
// for the page's performance timeline and the e2e start-up benchmark.
func Mark(name string) {
	js.Global().Get("performance").Call("mark", "tapelab:"+name)
}

// DevicePixelRatio is the screen's pixels per CSS pixel (at least 1).
func DevicePixelRatio() float64 {
	return max(1, js.Global().Get("devicePixelRatio").Float())
}

// Location is the page's URL, in parts.
type Location struct{ Path, Search, Hash, Origin, Href string }

func CurrentLocation() Location {
	l := js.Global().Get("location")
	return Location{l.Get("pathname").String(), l.Get("search").String(), l.Get("hash").String(),
		l.Get("origin").String(), l.Get("href").String()}
}

// ReplaceFragment replaces the history entry's fragment by frag (no new
// entry) and returns the full URL.
func ReplaceFragment(frag string) string {
	l := CurrentLocation()
	js.Global().Get("history").Call("replaceState", js.Null(), "", l.Path+l.Search+"#"+frag)
	return CurrentLocation().Href
}

// CopyToClipboard copies text (already selected in a text box, for the
// fallback) and calls done with whether it worked. done runs on the
// clipboard's answer, or at once where there is no clipboard API.
func CopyToClipboard(doc *Document, text string, done func(ok bool)) {
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
		Recovered("clipboard", doc.report, func() { done(true) })
		return nil
	})
	fail = js.FuncOf(func(js.Value, []js.Value) any {
		ok.Release()
		fail.Release()
		Recovered("clipboard", doc.report, fallback)
		return nil
	})
	clip.Call("writeText", text).Call("then", ok, fail)
}

// FetchText runs fetch(url) and waits for the answer; it must be called
// from a goroutine, never from an event handler.
func FetchText(method, url, body string) (int, string, error) {
	opts := map[string]any{"method": method}
	if body != "" {
		opts["body"] = body
		opts["headers"] = map[string]any{"Content-Type": "application/json"}
	}
	return FetchBody(url, opts, false)
}

// FetchBody runs fetch(url, opts) and returns the status and the body as
// text, decompressed as gzip when gunzip is set (and the status is 200).
func FetchBody(url string, opts map[string]any, gunzip bool) (int, string, error) {
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

// ReadFile reads the first file chosen in a file input as text and calls
// done with it; it reports false when the file is larger than limit bytes
// (and then calls nothing).
func ReadFile(doc *Document, input Elem, limit int, done func(text string)) (tooLarge bool) {
	files := input.js().Get("files")
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
		Recovered("reading a file", doc.report, func() { done(text) })
		return nil
	})
	f.Call("text").Call("then", then)
	return false
}

// Download saves text as a file called name.
func Download(doc *Document, text, name, mime string) {
	blob := js.Global().Get("Blob").New(js.ValueOf([]any{text}), map[string]any{"type": mime})
	url := js.Global().Get("URL").Call("createObjectURL", blob)
	a := doc.El("a", "href", url.String(), "download", name, "hidden", "")
	doc.Body().AppendChild(a)
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

// Standalone returns the markup of an SVG element with the page's style
// rules inlined, so that the file looks the same outside the page.
func Standalone(doc *Document, svg Elem) string {
	clone := svg.js().Call("cloneNode", true)
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
	style := doc.SVG("style")
	style.SetTextContent(css.String())
	clone.Call("prepend", style.js())
	if box := svg.Rect(); box.Width > 0 {
		clone.Call("setAttribute", "width", box.Width)
		clone.Call("setAttribute", "height", box.Height)
	}
	return `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + js.Global().Get("XMLSerializer").New().Call("serializeToString", clone).String()
}

// Expose makes fn callable from the page's console and tests as
// window[name](arg): it returns fn's text, or {error: message}.
func Expose(doc *Document, name string, fn func(arg string) (string, error)) {
	js.Global().Set(name, js.FuncOf(func(_ js.Value, args []js.Value) any {
		var out any
		Recovered(name, doc.report, func() {
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

// MediaMatches reports whether the CSS media query q matches the page now.
func MediaMatches(q string) bool { return js.Global().Call("matchMedia", q).Get("matches").Bool() }

// NextFrame runs fn once the browser has laid the page out again.
func NextFrame(doc *Document, what string, fn func()) {
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		f.Release()
		Recovered(what, doc.report, fn)
		return nil
	})
	js.Global().Call("requestAnimationFrame", f)
}

// OnResize calls fn whenever e changes size.
func OnResize(doc *Document, e Elem, what string, fn func()) {
	ro := js.Global().Get("ResizeObserver").New(js.FuncOf(func(js.Value, []js.Value) any {
		Recovered(what, doc.report, fn)
		return nil
	}))
	ro.Call("observe", e.js())
}

// Canvas is a 2-D Canvas of a size in CSS pixels, drawn at the screen's
// resolution.
type Canvas struct {
	El     Elem
	ctx    js.Value
	Dashed *bool // the context's line dash is set (it is cleared only then)
}

// NewCanvas returns a canvas of w × h CSS pixels with attributes.
func NewCanvas(doc *Document, w, h float64, attrs ...string) Canvas {
	dpr := DevicePixelRatio()
	e := doc.El("canvas", append([]string{"width", strconv.Itoa(int(w * dpr)), "height", strconv.Itoa(int(h * dpr))}, attrs...)...)
	c := Canvas{El: e, ctx: e.js().Call("getContext", "2d"), Dashed: new(bool)}
	c.ctx.Call("scale", dpr, dpr)
	return c
}

// Pixels is an offscreen canvas of n × n Pixels, painted from Go's bytes.
type Pixels struct {
	N   int
	El  js.Value
	ctx js.Value
	Img js.Value // its ImageData
	Buf js.Value // Uint8Array over the ImageData's pixels
	// RGBA holds 4 bytes per pixel, row by row; Put copies them to the canvas.
	RGBA []byte
}

func NewPixels(doc *Document, n int) *Pixels {
	e := doc.El("canvas", "width", strconv.Itoa(n), "height", strconv.Itoa(n))
	p := &Pixels{N: n, El: e.js(), ctx: e.js().Call("getContext", "2d"), RGBA: make([]byte, 4*n*n)}
	p.Img = p.ctx.Call("createImageData", n, n)
	p.Buf = js.Global().Get("Uint8Array").New(p.Img.Get("data").Get("buffer"))
	return p
}

// Put copies RGBA to the offscreen canvas.
func (p *Pixels) Put() {
	js.CopyBytesToJS(p.Buf, p.RGBA)
	p.ctx.Call("putImageData", p.Img, 0, 0)
}

// The drawing calls, named as in CanvasRenderingContext2D.
func (c Canvas) Clear(w, h float64)      { c.ctx.Call("clearRect", 0, 0, w, h) }
func (c Canvas) BeginPath()              { c.ctx.Call("beginPath") }
func (c Canvas) MoveTo(x, y float64)     { c.ctx.Call("moveTo", x, y) }
func (c Canvas) LineTo(x, y float64)     { c.ctx.Call("lineTo", x, y) }
func (c Canvas) Rect(x, y, w, h float64) { c.ctx.Call("rect", x, y, w, h) }
func (c Canvas) Circle(x, y, r float64)  { c.ctx.Call("arc", x, y, r, 0, 6.283185307179586) }
func (c Canvas) Fill(colour string)      { c.ctx.Set("fillStyle", colour); c.ctx.Call("fill") }
func (c Canvas) RoundPen()               { c.ctx.Set("lineCap", "round"); c.ctx.Set("lineJoin", "round") }
func (c Canvas) TextAlign(a string)      { c.ctx.Set("textAlign", a) }
func (c Canvas) Alpha(a float64)         { c.ctx.Set("globalAlpha", a) }
func (c Canvas) FillText(s string, x, y float64, colour, font string) {
	c.ctx.Set("fillStyle", colour)
	c.ctx.Set("font", font)
	c.ctx.Call("fillText", s, x, y)
}

// TextWidth is the width of s drawn in font, in the canvas's units.
func (c Canvas) TextWidth(s, font string) float64 {
	c.ctx.Set("font", font)
	return c.ctx.Call("measureText", s).Get("width").Float()
}

// Stroke strokes the path; dash, when given, is the line's dash pattern.
func (c Canvas) Stroke(colour string, width float64, dash ...any) {
	if len(dash) > 0 || *c.Dashed {
		c.ctx.Call("setLineDash", js.ValueOf(append([]any{}, dash...)))
		*c.Dashed = len(dash) > 0
	}
	c.ctx.Set("strokeStyle", colour)
	c.ctx.Set("lineWidth", width)
	c.ctx.Call("stroke")
}

// Background fills the canvas (w × h) with colour.
func (c Canvas) Background(colour string, w, h float64) {
	c.ctx.Set("fillStyle", colour)
	c.ctx.Call("fillRect", 0, 0, w, h)
}

// DrawPixels draws p scaled smoothly to w × h.
func (c Canvas) DrawPixels(p *Pixels, w, h float64) {
	c.ctx.Set("imageSmoothingEnabled", true)
	c.ctx.Call("drawImage", p.El, 0, 0, w, h)
}

// CapturePointer sends pointer id's further events to e until it is
// released (a finger lifted), so that a drag goes on outside e. A pointer
// the browser no longer knows (the finger lifted already) is left as it is.
func CapturePointer(e Elem, id int) {
	defer func() { _ = recover() }() // setPointerCapture throws for a pointer that is gone
	e.js().Call("setPointerCapture", id)
}

// MediaQuery is a CSS media query, evaluated whenever asked.
type MediaQuery struct{ v js.Value }

// NewMediaQuery returns the media query q, e.g. "(prefers-reduced-motion: reduce)".
func NewMediaQuery(q string) MediaQuery { return MediaQuery{js.Global().Call("matchMedia", q)} }

// Matches reports whether the query holds now.
func (m MediaQuery) Matches() bool { return m.v.Get("matches").Bool() }

// BeginAnimation starts an SVG animation element (begin="indefinite") now.
func BeginAnimation(e Elem) { e.js().Call("beginElement") }

// After runs fn once, ms milliseconds from now (setTimeout: the page's
// clock, as the SVG animations it waits for keep it).
func After(doc *Document, ms float64, what string, fn func()) {
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		f.Release()
		Recovered(what, doc.report, fn)
		return nil
	})
	js.Global().Call("setTimeout", f, ms)
}

// AfterPaint returns once the browser has painted a frame and then run
// the tasks that were waiting (a requestAnimationFrame, then a setTimeout
// of 0): what start-up made usable is on screen, and a click or key
// pressed meanwhile is answered, before the work that follows.
func AfterPaint() {
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

// YieldToBrowser returns once the browser has run the tasks waiting for
// it (the loader's tapelabYield, a message the page posts to itself; a
// setTimeout of 0 without it): the Go program blocks meanwhile, so the
// page can paint and answer input between two parts of a long piece of
// work.
func YieldToBrowser() {
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

// DrawPixelsAt draws p at (x, y) as an s × s square, each pixel a sharp
// square (no smoothing).
func (c Canvas) DrawPixelsAt(p *Pixels, x, y, s float64) {
	c.ctx.Set("imageSmoothingEnabled", false)
	c.ctx.Call("drawImage", p.El, x, y, s, s)
}
