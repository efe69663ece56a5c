package train

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"tapelab/engine/tensor"
)

// A generator writes n examples into x (n·features values) and y (n values).
type generator struct {
	features int
	classes  int // 2 for the classification sets, 0 for regression
	gen      func(n int, noise float64, r *rand.Rand, x, y []float64)
}

// generators are the playground's datasets. The first six port TensorFlow
// Playground's dataset.ts (labels +1/−1 become classes 1/0); moons follows
// scikit-learn's make_moons; sine is y = sin(x) on [−π, π]. The image sets
// have 64 features (8×8 pixels); digits has no generator: it is read from
// its file (GenerateFrom).
var generators = map[string]generator{
	"circle":    {2, 2, circle},
	"xor":       {2, 2, xor},
	"gauss":     {2, 2, gauss},
	"spiral":    {2, 2, spiral},
	"reg-plane": {2, 0, regPlane},
	"reg-gauss": {2, 0, regGauss},
	"moons":     {2, 2, moons},
	"sine":      {1, 0, sine},
	"shapes":    {ImageSide * ImageSide, len(shapeNames), shapes},
	"digits":    {ImageSide * ImageSide, 10, nil},
}

var datasetNames = []string{"circle", "xor", "gauss", "spiral", "reg-plane", "reg-gauss", "moons", "sine"}

var datasetList = strings.Join(append(DatasetNames(), imageNames...), ", ")

// DatasetNames lists the point datasets (2-D points and the 1-D sine); see
// ImageDatasetNames for the others.
func DatasetNames() []string { return append([]string(nil), datasetNames...) }

func uniform(r *rand.Rand, lo, hi float64) float64 { return r.Float64()*(hi-lo) + lo }

// normal draws from N(mean, variance) with the Marsaglia polar method, as
// the playground's normalRandom does.
func normal(r *rand.Rand, mean, variance float64) float64 {
	var v1, v2, s float64
	for {
		v1 = 2*r.Float64() - 1
		v2 = 2*r.Float64() - 1
		s = v1*v1 + v2*v2
		if s <= 1 && s > 0 {
			break
		}
	}
	return mean + math.Sqrt(variance)*math.Sqrt(-2*math.Log(s)/s)*v1
}

func class(positive bool) float64 {
	if positive {
		return 1
	}
	return 0
}

// circle: class 1 inside radius 2.5, class 0 on the ring from 3.5 to 5;
// noise moves the point used for labelling by up to ±5·noise.
func circle(n int, noise float64, r *rand.Rand, x, y []float64) {
	const radius = 5.0
	for i := 0; i < n; i++ {
		lo, hi := 0.0, radius*0.5
		if i >= n/2 {
			lo, hi = radius*0.7, radius
		}
		rad := uniform(r, lo, hi)
		angle := uniform(r, 0, 2*math.Pi)
		px, py := rad*math.Sin(angle), rad*math.Cos(angle)
		nx, ny := uniform(r, -radius, radius)*noise, uniform(r, -radius, radius)*noise
		x[2*i], x[2*i+1] = px, py
		y[i] = class(math.Hypot(px+nx, py+ny) < radius*0.5)
	}
}

// xor: points in [−5.3, 5.3]² away from the axes, class 1 where x·y ≥ 0.
func xor(n int, noise float64, r *rand.Rand, x, y []float64) {
	const padding = 0.3
	for i := 0; i < n; i++ {
		px, py := uniform(r, -5, 5), uniform(r, -5, 5)
		if px > 0 {
			px += padding
		} else {
			px -= padding
		}
		if py > 0 {
			py += padding
		} else {
			py -= padding
		}
		nx, ny := uniform(r, -5, 5)*noise, uniform(r, -5, 5)*noise
		x[2*i], x[2*i+1] = px, py
		y[i] = class((px+nx)*(py+ny) >= 0)
	}
}

// gauss: two Gaussian blobs at (2, 2) (class 1) and (−2, −2) (class 0)
// with variance 0.5 + 7·noise.
func gauss(n int, noise float64, r *rand.Rand, x, y []float64) {
	variance := 0.5 + 7*noise
	for i := 0; i < n; i++ {
		c, lbl := 2.0, 1.0
		if i >= n/2 {
			c, lbl = -2, 0
		}
		x[2*i], x[2*i+1] = normal(r, c, variance), normal(r, c, variance)
		y[i] = lbl
	}
}

// spiral: two interleaved spirals of radius up to 5, class 1 and class 0,
// each point moved by up to ±noise.
func spiral(n int, noise float64, r *rand.Rand, x, y []float64) {
	half := n / 2
	for i := 0; i < n; i++ {
		j, m, delta, lbl := i, half, 0.0, 1.0
		if i >= half {
			j, m, delta, lbl = i-half, n-half, math.Pi, 0
		}
		rad := float64(j) / float64(m) * 5
		t := 1.75*float64(j)/float64(m)*2*math.Pi + delta
		x[2*i] = rad*math.Sin(t) + uniform(r, -1, 1)*noise
		x[2*i+1] = rad*math.Cos(t) + uniform(r, -1, 1)*noise
		y[i] = lbl
	}
}

// regPlane: points in [−6, 6]², target (x+y)/10 at a point moved by up to ±6·noise.
func regPlane(n int, noise float64, r *rand.Rand, x, y []float64) {
	const radius = 6.0
	for i := 0; i < n; i++ {
		px, py := uniform(r, -radius, radius), uniform(r, -radius, radius)
		nx, ny := uniform(r, -radius, radius)*noise, uniform(r, -radius, radius)*noise
		x[2*i], x[2*i+1] = px, py
		y[i] = (px + nx + py + ny) / 10
	}
}

// regGauss: points in [−6, 6]², target the signed bump of the strongest of
// six Gaussian-like bumps (value 1 − distance/2, clamped to [0, 1]).
func regGauss(n int, noise float64, r *rand.Rand, x, y []float64) {
	bumps := [6][3]float64{{-4, 2.5, 1}, {0, 2.5, -1}, {4, 2.5, 1}, {-4, -2.5, -1}, {0, -2.5, 1}, {4, -2.5, -1}}
	const radius = 6.0
	for i := 0; i < n; i++ {
		px, py := uniform(r, -radius, radius), uniform(r, -radius, radius)
		nx, ny := uniform(r, -radius, radius)*noise, uniform(r, -radius, radius)*noise
		label := 0.0
		for _, b := range bumps {
			v := 1 - math.Hypot(px+nx-b[0], py+ny-b[1])/2
			v = b[2] * math.Max(0, math.Min(1, v))
			if math.Abs(v) > math.Abs(label) {
				label = v
			}
		}
		x[2*i], x[2*i+1] = px, py
		y[i] = label
	}
}

// moons: scikit-learn's make_moons: the upper half circle (class 0) and a
// shifted lower half circle (class 1), Gaussian noise with std noise.
func moons(n int, noise float64, r *rand.Rand, x, y []float64) {
	out := n / 2
	in := n - out
	for i := 0; i < n; i++ {
		var px, py, lbl float64
		if i < out {
			t := linspace(i, out)
			px, py = math.Cos(t), math.Sin(t)
		} else {
			t := linspace(i-out, in)
			px, py, lbl = 1-math.Cos(t), 1-math.Sin(t)-0.5, 1
		}
		x[2*i] = px + noise*normal(r, 0, 1)
		x[2*i+1] = py + noise*normal(r, 0, 1)
		y[i] = lbl
	}
}

// linspace returns the i-th of m points evenly spaced over [0, π].
func linspace(i, m int) float64 {
	if m < 2 {
		return 0
	}
	return math.Pi * float64(i) / float64(m-1)
}

// sine: x uniform in [−π, π], target sin(x) plus Gaussian noise with std noise.
func sine(n int, noise float64, r *rand.Rand, x, y []float64) {
	for i := 0; i < n; i++ {
		v := uniform(r, -math.Pi, math.Pi)
		x[i] = v
		y[i] = math.Sin(v) + noise*normal(r, 0, 1)
	}
}

// Generate draws the configured dataset, shuffles it and splits it into a
// training set and a test set (empty when TrainSplit is 1). The same
// configuration always gives the same sets.
func Generate(c DataConfig) (trainSet, testSet *Dataset, err error) {
	if err := c.Check(); err != nil {
		return nil, nil, err
	}
	g := generators[c.Name]
	if g.gen == nil {
		return nil, nil, fmt.Errorf("%s is read from its data file %s, not generated: use ReadDigits and GenerateFrom", c.Name, DataFile(c.Name))
	}
	x := make([]float64, c.N*g.features)
	y := make([]float64, c.N)
	g.gen(c.N, c.Noise, rand.New(rand.NewPCG(c.Seed, 1)), x, y)
	all := &Dataset{X: &tensor.Tensor{Shape: tensor.Shape{c.N, g.features}, Data: x}, Y: &tensor.Tensor{Shape: tensor.Shape{c.N, 1}, Data: y}, Classes: g.classes}
	all.shuffle(rand.New(rand.NewPCG(c.Seed, 2)))
	k := max(1, int(float64(c.N)*c.TrainSplit))
	trainSet, testSet = all.split(k)
	return trainSet, testSet, nil
}
