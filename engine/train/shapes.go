package train

import (
	"math"
	"math/rand/v2"
)

// shapeNames are the classes of the shapes dataset, in index order.
var shapeNames = [...]string{"horizontal bar", "vertical bar", "diagonal", "cross", "ring"}

// shapes draws 8×8 images of five classes in turn (so every class has n/5
// examples, give or take one): a horizontal bar, a vertical bar, a
// diagonal (either way), a cross (+) and a ring, each at a random place,
// size and thickness (one or two pixels), ink 1 on a background 0, then
// moved by pixel noise (see pixelNoise).
func shapes(n int, noise float64, r *rand.Rand, x, y []float64) {
	const side = ImageSide
	for i := 0; i < n; i++ {
		img := x[i*side*side : (i+1)*side*side]
		set := func(row, col int) { img[row*side+col] = 1 }
		c := i % len(shapeNames)
		y[i] = float64(c)
		t := 1 + r.IntN(2)
		switch c {
		case 0, 1: // a bar of length 4 to 8
			length := 4 + r.IntN(side-3)
			at, from := r.IntN(side-t+1), r.IntN(side-length+1)
			for k := range length {
				for j := range t {
					if c == 0 {
						set(at+j, from+k)
					} else {
						set(from+k, at+j)
					}
				}
			}
		case 2: // a diagonal of length 4 to 9−t, down to the right or to the left
			length := 4 + r.IntN(side-2-t)
			row, col := r.IntN(side-length+1), r.IntN(side-length-t+2)
			right := r.IntN(2) == 0
			for k := range length {
				kc := k
				if !right {
					kc = length - 1 - k
				}
				for j := range t {
					set(row+k, col+kc+j)
				}
			}
		case 3: // a cross with arms of 2 or 3 pixels around a t×t centre
			arm := 2 + r.IntN(2)
			w := 2*arm + t // at most 8
			row, col := r.IntN(side-w+1), r.IntN(side-w+1)
			for k := range w {
				for j := range t {
					set(row+arm+j, col+k)
					set(row+k, col+arm+j)
				}
			}
		case 4: // a ring of radius 2.2 to 3.2 and width 1 or 1.6
			radius := uniform(r, 2.2, 3.2)
			half := 0.5 + 0.3*float64(t-1)
			cy, cx := uniform(r, radius, side-radius), uniform(r, radius, side-radius)
			for row := range side {
				for col := range side {
					if math.Abs(math.Hypot(float64(row)+0.5-cy, float64(col)+0.5-cx)-radius) <= half {
						set(row, col)
					}
				}
			}
		}
		pixelNoise(img, noise, r)
	}
}
