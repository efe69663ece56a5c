package app

import "math"

// Ink is a drawing made with a mouse, pen or finger: strokes of points, in
// any unit (the page uses the canvas's CSS pixels), each stroke its
// points' coordinates in order: x0, y0, x1, y1, ….
type Ink struct {
	Strokes [][]float64
}

// Point is one point of a stroke.
type Point struct{ X, Y float64 }

// Ink's downsampling follows how the UCI digits were made: the drawing is
// scaled to fill a bitmap of inkBits × inkBits bits (keeping its aspect,
// centred), a bit is set where the pen passed, and each 4×4 block of bits
// becomes one pixel, the count of its set bits (0 to 16) divided by 16.
const (
	inkBlock = 4
	inkLevel = inkBlock * inkBlock // the highest grey level: 16
	// inkPen is the pen's radius in bits of the bitmap.
	inkPen = 1.6
)

// Add starts a new stroke at p (down set) or extends the current one.
func (k *Ink) Add(p Point, down bool) {
	if down || len(k.Strokes) == 0 {
		k.Strokes = append(k.Strokes, nil)
	}
	n := len(k.Strokes) - 1
	k.Strokes[n] = append(k.Strokes[n], p.X, p.Y)
}

// Empty reports whether nothing has been drawn.
func (k *Ink) Empty() bool { return len(k.Strokes) == 0 }

// Pixels returns the drawing as a side × side image, row by row, each pixel
// one of the 17 grey levels 0, 1/16, …, 1 (the digits' 16 levels and
// blank), as train.GenerateFrom scales the digits. An empty drawing is all
// zeros.
func (k *Ink) Pixels(side int) []float64 {
	out := make([]float64, side*side)
	x0, y0, x1, y1, ok := k.bounds()
	if !ok || side < 1 {
		return out
	}
	bits := side * inkBlock
	// Fit the drawing's longer side to the bitmap less the pen's reach.
	span := math.Max(x1-x0, y1-y0)
	room := float64(bits) - 2*inkPen
	scale := 1.0
	if span > 0 {
		scale = room / span
	}
	offX := (float64(bits) - (x1-x0)*scale) / 2
	offY := (float64(bits) - (y1-y0)*scale) / 2
	var segs [][2]Point
	at := func(s []float64, i int) Point { return Point{(s[i]-x0)*scale + offX, (s[i+1]-y0)*scale + offY} }
	for _, s := range k.Strokes {
		for i := 0; i+1 < len(s); i += 2 {
			a, b := at(s, i), at(s, i)
			if i+3 < len(s) {
				b = at(s, i+2)
			} else if len(s) > 2 {
				continue
			}
			segs = append(segs, [2]Point{a, b})
		}
	}
	for by := range bits {
		for bx := range bits {
			c := Point{float64(bx) + 0.5, float64(by) + 0.5}
			for _, sg := range segs {
				if segDist(c, sg[0], sg[1]) <= inkPen {
					out[(by/inkBlock)*side+bx/inkBlock]++
					break
				}
			}
		}
	}
	for i := range out {
		out[i] /= inkLevel
	}
	return out
}

// bounds returns the drawing's bounding box.
func (k *Ink) bounds() (x0, y0, x1, y1 float64, ok bool) {
	x0, y0 = math.Inf(1), math.Inf(1)
	x1, y1 = math.Inf(-1), math.Inf(-1)
	for _, s := range k.Strokes {
		for i := 0; i+1 < len(s); i += 2 {
			x0, y0 = math.Min(x0, s[i]), math.Min(y0, s[i+1])
			x1, y1 = math.Max(x1, s[i]), math.Max(y1, s[i+1])
			ok = true
		}
	}
	return x0, y0, x1, y1, ok
}

// segDist is the distance from c to the segment a–b.
func segDist(c, a, b Point) float64 {
	dx, dy := b.X-a.X, b.Y-a.Y
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = math.Max(0, math.Min(1, ((c.X-a.X)*dx+(c.Y-a.Y)*dy)/l))
	}
	return math.Hypot(c.X-a.X-t*dx, c.Y-a.Y-t*dy)
}
