package trainer

import (
	"errors"
	"math"
	"strconv"

	"tapelab/engine/nn"
)

// maxTrail bounds the parameter points a session keeps of its path;
// older ones are thinned, as the history is.
const maxTrail = 2000

// Point is a point of a two-parameter model's parameter plane.
type Point struct{ X, Y float64 }

// Two reports whether the model has exactly two parameter values (over
// all its parameters): its loss is a surface over a plane the view can
// draw. The names say which values, e.g. "0.weight[0]" and "0.bias[0]".
func (s *Session) Two() (names [2]string, ok bool) {
	n := 0
	for _, p := range s.model.Seq.Params() {
		for k := 0; k < p.Shape.Size(); k++ {
			if n < 2 {
				names[n] = p.Name + "[" + strconv.Itoa(k) + "]"
			}
			n++
		}
	}
	return names, n == 2
}

// theta returns the two parameter values of a two-parameter model.
func (s *Session) theta() Point {
	var v []float64
	for _, p := range s.model.Params {
		v = append(v, p.Data...)
	}
	return Point{v[0], v[1]}
}

// Trail returns a two-parameter model's path through its parameter plane:
// its parameters at the start and after every step (thinned to at most
// maxTrail points, the first and last kept), or nil for other models.
func (s *Session) Trail() []Point { return s.trail }

// follow appends the current parameters to a two-parameter model's
// trail, thinning it when full.
func (s *Session) follow() {
	if !s.two {
		return
	}
	s.trail = append(s.trail, s.theta())
	if len(s.trail) > maxTrail {
		kept := s.trail[:1]
		for i := 2; i < len(s.trail)-1; i += 2 {
			kept = append(kept, s.trail[i])
		}
		s.trail = append(kept, s.trail[len(s.trail)-1])
	}
}

// Surface evaluates a two-parameter model's loss over the training set
// (eval mode) at the centres of an n×n grid of its parameter plane over
// b (X the first value, Y the second), row by row from the top (Y1) down.
// The session's own parameters are not touched.
func (s *Session) Surface(b Bounds, n int) ([]float64, error) {
	if _, ok := s.Two(); !ok {
		return nil, errors.New("the loss surface needs a model with exactly two parameter values")
	}
	m := s.model.Clone()
	var at [2]*float64
	k := 0
	for _, p := range m.Params {
		for i := range p.Data {
			at[k] = &p.Data[i]
			k++
		}
	}
	x, y := s.trainSet.Batch(m)
	pass := nn.NewFusedPass(m)
	out := make([]float64, 0, n*n)
	for r := 0; r < n; r++ {
		*at[1] = b.Y1 - (float64(r)+0.5)*(b.Y1-b.Y0)/float64(n)
		for c := 0; c < n; c++ {
			*at[0] = b.X0 + (float64(c)+0.5)*(b.X1-b.X0)/float64(n)
			if err := pass.Forward(x, y, nn.Eval, 0); err != nil {
				return nil, err
			}
			out = append(out, pass.Loss())
		}
	}
	return out, nil
}

// TrailBounds returns a square of the parameter plane around every point
// of the trails, with room around them, at least 1 across.
func TrailBounds(trails ...[]Point) Bounds {
	lo, hi := Point{math.Inf(1), math.Inf(1)}, Point{math.Inf(-1), math.Inf(-1)}
	for _, t := range trails {
		for _, p := range t {
			if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsInf(p.X, 0) || math.IsInf(p.Y, 0) {
				continue
			}
			lo.X, lo.Y = math.Min(lo.X, p.X), math.Min(lo.Y, p.Y)
			hi.X, hi.Y = math.Max(hi.X, p.X), math.Max(hi.Y, p.Y)
		}
	}
	if lo.X > hi.X {
		lo, hi = Point{}, Point{}
	}
	w := math.Max(1, 1.5*math.Max(hi.X-lo.X, hi.Y-lo.Y))
	cx, cy := (lo.X+hi.X)/2, (lo.Y+hi.Y)/2
	return Bounds{X0: cx - w/2, X1: cx + w/2, Y0: cy - w/2, Y1: cy + w/2}
}

// Contains reports whether every point of the trails lies inside b.
func (b Bounds) Contains(trails ...[]Point) bool {
	for _, t := range trails {
		for _, p := range t {
			if p.X < b.X0 || p.X > b.X1 || p.Y < b.Y0 || p.Y > b.Y1 {
				return false
			}
		}
	}
	return true
}
