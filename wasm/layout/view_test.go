package layout

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// shown returns where the view shows the drawing's point p.
func (v View) shown(p Point) Point { return Point{v.TX + p.X*v.Scale, v.TY + p.Y*v.Scale} }

// drawn returns the drawing's point the view shows at q.
func (v View) drawn(q Point) Point { return Point{(q.X - v.TX) / v.Scale, (q.Y - v.TY) / v.Scale} }

func TestZoomAtKeepsThePointUnderTheCursor(t *testing.T) {
	for _, tc := range []struct {
		name      string
		v         View
		factor    float64
		c         Point
		wantScale float64
	}{
		{"in", View{Scale: 1, TX: 10, TY: 20, Min: 0.5, Max: 4}, 2, Point{100, 50}, 2},
		{"out", View{Scale: 2, TX: -30, TY: 5, Min: 0.5, Max: 4}, 0.5, Point{300, 200}, 1},
		{"clamped at max", View{Scale: 3, Min: 0.5, Max: 4}, 10, Point{40, 40}, 4},
		{"clamped at min", View{Scale: 1, TX: 7, Min: 0.75, Max: 4}, 0.1, Point{200, 10}, 0.75},
		{"unbounded", View{Scale: 1}, 100, Point{1, 1}, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			under := tc.v.drawn(tc.c)
			got := tc.v.ZoomAt(tc.factor, tc.c.X, tc.c.Y)
			if !near(got.Scale, tc.wantScale) {
				t.Errorf("scale %v, want %v", got.Scale, tc.wantScale)
			}
			if p := got.shown(under); !near(p.X, tc.c.X) || !near(p.Y, tc.c.Y) {
				t.Errorf("the point under the cursor moved to %v, want %v", p, tc.c)
			}
		})
	}
}

func TestPinch(t *testing.T) {
	for _, tc := range []struct {
		name           string
		v              View
		a0, b0, a1, b1 Point
		wantScale      float64
	}{
		{"spread apart", View{Scale: 1, Min: 0.5, Max: 4}, Point{100, 100}, Point{200, 100}, Point{50, 100}, Point{250, 100}, 2},
		{"pinched together", View{Scale: 2, TX: 40, TY: -10, Min: 0.5, Max: 4}, Point{0, 0}, Point{0, 300}, Point{0, 75}, Point{0, 225}, 1},
		{"moved together: pans only", View{Scale: 1.5, TX: 3, Min: 0.5, Max: 4}, Point{10, 10}, Point{60, 50}, Point{40, 30}, Point{90, 70}, 1.5},
		{"clamped", View{Scale: 1, Min: 0.75, Max: 4}, Point{0, 0}, Point{400, 0}, Point{190, 0}, Point{210, 0}, 0.75},
		{"fingers together: pans only", View{Scale: 1, Min: 0.5, Max: 4}, Point{5, 5}, Point{5, 5}, Point{25, 15}, Point{25, 15}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m0 := Point{(tc.a0.X + tc.b0.X) / 2, (tc.a0.Y + tc.b0.Y) / 2}
			m1 := Point{(tc.a1.X + tc.b1.X) / 2, (tc.a1.Y + tc.b1.Y) / 2}
			under := tc.v.drawn(m0)
			got := tc.v.Pinch(tc.a0, tc.b0, tc.a1, tc.b1)
			if !near(got.Scale, tc.wantScale) {
				t.Errorf("scale %v, want %v", got.Scale, tc.wantScale)
			}
			if p := got.shown(under); !near(p.X, m1.X) || !near(p.Y, m1.Y) {
				t.Errorf("the point under the old midpoint is at %v, want the new midpoint %v", p, m1)
			}
		})
	}
}

func TestPan(t *testing.T) {
	v := View{Scale: 2, TX: 1, TY: 2}.Pan(10, -5)
	if v.TX != 11 || v.TY != -3 || v.Scale != 2 {
		t.Errorf("got %+v", v)
	}
}

func TestFit(t *testing.T) {
	for _, tc := range []struct {
		name           string
		w, h, vw, vh   float64
		wantS, wantX   float64
		wantY          float64
		wantOverflowed bool
	}{
		{"fits: centred", 400, 100, 800, 400, 1.6, 80, 120, false},
		{"shrinks to fit", 1600, 200, 800, 400, 0.5, 0, 150, false},
		{"too long: min scale, from the start", 3200, 200, 800, 400, 0.75, 16, 125, true},
		{"too tall too", 3200, 800, 800, 400, 0.75, 16, 16, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			min := 0.5
			if tc.wantOverflowed {
				min = 0.75
			}
			v := View{Min: min, Max: 1.6}.Fit(tc.w, tc.h, tc.vw, tc.vh, 16)
			if !near(v.Scale, tc.wantS) || !near(v.TX, tc.wantX) || !near(v.TY, tc.wantY) {
				t.Errorf("got %+v, want scale %v at (%v, %v)", v, tc.wantS, tc.wantX, tc.wantY)
			}
			if got := v.Overflows(tc.w, tc.h, tc.vw, tc.vh); got != tc.wantOverflowed {
				t.Errorf("Overflows = %v, want %v", got, tc.wantOverflowed)
			}
		})
	}
}

func TestFollow(t *testing.T) {
	v := View{Scale: 0.5, TX: 0, TY: 0}
	for _, tc := range []struct {
		name  string
		b     Box
		moved bool
	}{
		{"in view", Box{X: 100, Y: 100, W: 100, H: 80}, false},
		{"right of the view", Box{X: 2000, Y: 100, W: 100, H: 80}, true},
		{"left of the view", Box{X: -600, Y: 100, W: 100, H: 80}, true},
		{"below", Box{X: 100, Y: 1000, W: 100, H: 80}, true},
		{"wider than the view", Box{X: 3000, Y: 100, W: 2000, H: 80}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const vw, vh, pad = 400, 300, 20
			got, moved := v.Follow(tc.b, vw, vh, pad)
			if moved != tc.moved {
				t.Errorf("moved = %v, want %v", moved, tc.moved)
			}
			x0 := got.TX + tc.b.X*got.Scale
			y0, y1 := got.TY+tc.b.Y*got.Scale, got.TY+(tc.b.Y+tc.b.H)*got.Scale
			x1 := math.Min(got.TX+(tc.b.X+tc.b.W)*got.Scale, vw-pad)
			if x0 < pad-1e-9 || x1 > vw-pad+1e-9 || y0 < pad-1e-9 || y1 > vh-pad+1e-9 {
				t.Errorf("the box is shown at x %v..%v y %v..%v, outside the padded view", x0, x1, y0, y1)
			}
			if got.Scale != v.Scale {
				t.Errorf("the scale changed to %v", got.Scale)
			}
		})
	}
}

func TestWheelFactor(t *testing.T) {
	for _, tc := range []struct {
		dy     float64
		pinch  bool
		lo, hi float64
	}{
		{-100, false, 1.15, 1.25},        // a notch towards the user zooms in
		{100, false, 1 / 1.25, 1 / 1.15}, // and away zooms out
		{-10, true, 1.08, 1.12},          // a trackpad pinch: faster per pixel
		{5000, false, 0.5, 0.5},          // clamped
		{-400, true, 2, 2},
		{0, false, 1, 1},
	} {
		f := WheelFactor(tc.dy, tc.pinch)
		if f < tc.lo-1e-12 || f > tc.hi+1e-12 {
			t.Errorf("WheelFactor(%v, %v) = %v, want within [%v, %v]", tc.dy, tc.pinch, f, tc.lo, tc.hi)
		}
	}
}
