package layout

import "math"

// View is how a drawing sits in a viewport: a point (x, y) of the drawing
// is shown at (TX + x·Scale, TY + y·Scale) viewport pixels. Its methods
// are the pan and zoom gestures; each returns the new view and keeps the
// scale within [Min, Max].
type View struct {
	Scale, TX, TY float64
	// Min and Max bound the scale (Clamp leaves a zero bound unbounded).
	Min, Max float64
}

// Clamp returns s limited to [v.Min, v.Max].
func (v View) Clamp(s float64) float64 {
	if v.Max > 0 {
		s = math.Min(s, v.Max)
	}
	if v.Min > 0 {
		s = math.Max(s, v.Min)
	}
	return s
}

// Pan moves the drawing by (dx, dy) viewport pixels.
func (v View) Pan(dx, dy float64) View {
	v.TX += dx
	v.TY += dy
	return v
}

// ZoomAt multiplies the scale by factor (clamped), keeping the drawing's
// point under (cx, cy) where it is.
func (v View) ZoomAt(factor, cx, cy float64) View {
	ns := v.Clamp(v.Scale * factor)
	f := ns / v.Scale
	v.TX = cx - (cx-v.TX)*f
	v.TY = cy - (cy-v.TY)*f
	v.Scale = ns
	return v
}

// Pinch follows two fingers moving from (a0, b0) to (a1, b1): the scale
// changes by the ratio of their distances (clamped) and the drawing's
// point under the old midpoint moves to the new midpoint. Fingers closer
// than a pixel change only the pan.
func (v View) Pinch(a0, b0, a1, b1 Point) View {
	m0 := Point{(a0.X + b0.X) / 2, (a0.Y + b0.Y) / 2}
	m1 := Point{(a1.X + b1.X) / 2, (a1.Y + b1.Y) / 2}
	d0 := math.Hypot(b0.X-a0.X, b0.Y-a0.Y)
	d1 := math.Hypot(b1.X-a1.X, b1.Y-a1.Y)
	if d0 >= 1 && d1 >= 1 {
		v = v.ZoomAt(d1/d0, m0.X, m0.Y)
	}
	return v.Pan(m1.X-m0.X, m1.Y-m0.Y)
}

// Fit shows a drawing of w × h in a viewport of vw × vh: as large as fits
// (within [Min, Max]) and centred. A drawing that does not fit at Min is
// shown at Min, centred on the axis where it fits and from its start
// (left or top, with margin pad) on the axis where it does not.
func (v View) Fit(w, h, vw, vh, pad float64) View {
	v.Scale = v.Clamp(math.Min(vw/w, vh/h))
	v.TX = place(w*v.Scale, vw, pad)
	v.TY = place(h*v.Scale, vh, pad)
	return v
}

// place returns where a drawing of size n starts in a viewport of size m:
// centred when it fits, else at pad.
func place(n, m, pad float64) float64 {
	if n <= m {
		return (m - n) / 2
	}
	return pad
}

// Overflows reports whether a drawing of w × h at the view's scale is
// larger than the viewport on either axis.
func (v View) Overflows(w, h, vw, vh float64) bool {
	return w*v.Scale > vw+0.5 || h*v.Scale > vh+0.5
}

// Follow pans, keeping the scale, so that the box b of the drawing is in
// the viewport with pad pixels around it: on each axis where it is not,
// the box is centred (or, when it is larger than the viewport, its start
// is shown). It returns the view and whether it moved.
func (v View) Follow(b Box, vw, vh, pad float64) (View, bool) {
	moved := false
	x0, x1 := v.TX+b.X*v.Scale, v.TX+(b.X+b.W)*v.Scale
	if x0 < pad || x1 > vw-pad {
		v.TX += follow(x0, x1, vw, pad)
		moved = true
	}
	y0, y1 := v.TY+b.Y*v.Scale, v.TY+(b.Y+b.H)*v.Scale
	if y0 < pad || y1 > vh-pad {
		v.TY += follow(y0, y1, vh, pad)
		moved = true
	}
	return v, moved
}

// follow returns the shift that brings [a, b] into [pad, m-pad]: centred,
// or its start at pad when it is larger.
func follow(a, b, m, pad float64) float64 {
	if b-a > m-2*pad {
		return pad - a
	}
	return m/2 - (a+b)/2
}

// WheelFactor is the zoom factor of a wheel event that scrolled deltaY
// pixels (down, away from the user, is positive and zooms out). A mouse
// wheel's notch is about 100 pixels and zooms by about 1.2; a trackpad's
// pinch arrives as wheel events of a few pixels with pinch set (the
// browser holds Ctrl for it) and zooms faster per pixel. One event zooms
// by at most 2 either way.
func WheelFactor(deltaY float64, pinch bool) float64 {
	k := 1 / 550.0
	if pinch {
		k = 1 / 100.0
	}
	return math.Min(2, math.Max(0.5, math.Exp(-deltaY*k)))
}
