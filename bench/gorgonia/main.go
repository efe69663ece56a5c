// Command gorgonia runs the speed workloads of tapelab/bench on gorgonia
// (gorgonia.org/gorgonia), Go's best-known autograd library, as its users
// write them: one expression graph, G.Grad, a TapeMachine with
// BindDualValues and the VanillaSolver, on the same data and initial
// weights as every other contender. It prints one JSON line per workload,
// like bench/cmd/tapebench. It lives in a module of its own so that the
// main module does not depend on gorgonia; ./build.sh bench runs it
// natively and compiled to wasm under node.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"tapelab/bench"
)

func main() {
	name := flag.String("name", "gorgonia", "contender name to report")
	only := flag.String("workload", "", "run only this workload (tiny, big or cnn)")
	flag.Parse()
	for _, w := range bench.Workloads() {
		if *only != "" && *only != w.Name {
			continue
		}
		t, err := newTrainer(w)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gorgonia:", err)
			os.Exit(1)
		}
		r, err := bench.MeasureStepper(*name, w, t)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gorgonia:", err)
			os.Exit(1)
		}
		b, _ := json.Marshal(r)
		fmt.Println(string(b))
	}
}

// trainer is one workload's model on a gorgonia graph.
type trainer struct {
	vm         G.VM
	solver     G.Solver
	x, y       *G.Node
	learnables G.Nodes
	loss       G.Value
	xs, ys     []tensor.Tensor // the batches
	it         int
}

// newTrainer builds the workload's graph, gradients and machine.
func newTrainer(w bench.Workload) (*trainer, error) {
	g := G.NewGraph()
	d, classes := w.InputSize(), w.Sizes[len(w.Sizes)-1]
	xshape := tensor.Shape{w.Batch, d}
	if len(w.Image) > 0 {
		xshape = tensor.Shape{w.Batch, w.Image[0], w.Image[1], w.Image[2]}
	}
	t := &trainer{
		x: G.NewTensor(g, tensor.Float64, len(xshape), G.WithShape(xshape...), G.WithName("x")),
		y: G.NewMatrix(g, tensor.Float64, G.WithShape(w.Batch, classes), G.WithName("y")),
	}
	params := w.Params()
	h, err := t.convolutions(g, w, params)
	if err != nil {
		return nil, err
	}
	params = params[len(w.Convs):]
	for l, p := range params {
		// TapeLab's W is out×in; the usual gorgonia program multiplies x·W.
		wt := make([]float64, p.In*p.Out)
		for o := range p.Out {
			for i := range p.In {
				wt[i*p.Out+o] = p.W[o*p.In+i]
			}
		}
		W := G.NewMatrix(g, tensor.Float64, G.WithShape(p.In, p.Out), G.WithName(fmt.Sprintf("W%d", l)),
			G.WithValue(tensor.New(tensor.WithShape(p.In, p.Out), tensor.WithBacking(wt))))
		b := G.NewVector(g, tensor.Float64, G.WithShape(p.Out), G.WithName(fmt.Sprintf("b%d", l)),
			G.WithValue(tensor.New(tensor.WithShape(p.Out), tensor.WithBacking(append([]float64(nil), p.B...)))))
		t.learnables = append(t.learnables, W, b)
		if h, err = G.Mul(h, W); err != nil {
			return nil, err
		}
		if h, err = G.BroadcastAdd(h, b, nil, []byte{0}); err != nil {
			return nil, err
		}
		if l == len(params)-1 {
			break
		}
		if w.Act == "tanh" {
			h, err = G.Tanh(h)
		} else {
			h, err = G.Rectify(h)
		}
		if err != nil {
			return nil, err
		}
	}
	var loss *G.Node
	if w.Loss == "mse" {
		loss = G.Must(G.Mean(G.Must(G.Square(G.Must(G.Sub(h, t.y))))))
	} else { // mean over the batch of the summed -log softmax · onehot
		logp := G.Must(G.Log(G.Must(G.SoftMax(h))))
		loss = G.Must(G.Neg(G.Must(G.Mean(G.Must(G.Sum(G.Must(G.HadamardProd(logp, t.y)), 1))))))
	}
	G.Read(loss, &t.loss)
	if _, err := G.Grad(loss, t.learnables...); err != nil {
		return nil, err
	}
	t.vm = G.NewTapeMachine(g, G.BindDualValues(t.learnables...))
	t.solver = G.NewVanillaSolver(G.WithLearnRate(w.LR))

	x, y := w.Data()
	for k := 0; k < w.N/w.Batch; k++ {
		xb := append([]float64(nil), x[k*w.Batch*d:(k+1)*w.Batch*d]...)
		yb := make([]float64, w.Batch*classes)
		for i := range w.Batch {
			if w.Loss == "mse" {
				yb[i] = y[k*w.Batch+i]
			} else {
				yb[i*classes+int(y[k*w.Batch+i])] = 1
			}
		}
		t.xs = append(t.xs, tensor.New(tensor.WithShape(xshape...), tensor.WithBacking(xb)))
		t.ys = append(t.ys, tensor.New(tensor.WithShape(w.Batch, classes), tensor.WithBacking(yb)))
	}
	return t, nil
}

// convolutions adds a CNN workload's convolutions (each Conv2d, its bias
// broadcast over the batch and the image, Rectify, MaxPool2D) to g, from
// t.x, and returns their output flattened (Reshape, in the (channel, row,
// column) order the dense layers read); for an MLP it returns t.x.
func (t *trainer) convolutions(g *G.ExprGraph, w bench.Workload, params []bench.Layer) (*G.Node, error) {
	h := t.x
	if len(w.Convs) == 0 {
		return h, nil
	}
	c := w.Image[0]
	for l, cv := range w.Convs {
		p, k := params[l], cv.Kernel
		W := G.NewTensor(g, tensor.Float64, 4, G.WithShape(cv.Out, c, k, k), G.WithName(fmt.Sprintf("K%d", l)),
			G.WithValue(tensor.New(tensor.WithShape(cv.Out, c, k, k), tensor.WithBacking(append([]float64(nil), p.W...)))))
		b := G.NewVector(g, tensor.Float64, G.WithShape(cv.Out), G.WithName(fmt.Sprintf("kb%d", l)),
			G.WithValue(tensor.New(tensor.WithShape(cv.Out), tensor.WithBacking(append([]float64(nil), p.B...)))))
		t.learnables = append(t.learnables, W, b)
		var err error
		if h, err = G.Conv2d(h, W, tensor.Shape{k, k}, []int{cv.Padding, cv.Padding}, []int{1, 1}, []int{1, 1}); err != nil {
			return nil, err
		}
		if h, err = G.BroadcastAdd(h, b, nil, []byte{0, 2, 3}); err != nil {
			return nil, err
		}
		if h, err = G.Rectify(h); err != nil {
			return nil, err
		}
		if cv.Pool > 1 {
			if h, err = G.MaxPool2D(h, tensor.Shape{cv.Pool, cv.Pool}, []int{0, 0}, []int{cv.Pool, cv.Pool}); err != nil {
				return nil, err
			}
		}
		c = cv.Out
	}
	return G.Reshape(h, tensor.Shape{w.Batch, w.Features()})
}

// Step runs one forward, backward and SGD update and returns the loss.
func (t *trainer) Step() (float64, error) {
	k := t.it % len(t.xs)
	t.it++
	if err := G.Let(t.x, t.xs[k]); err != nil {
		return 0, err
	}
	if err := G.Let(t.y, t.ys[k]); err != nil {
		return 0, err
	}
	defer t.vm.Reset()
	if err := t.vm.RunAll(); err != nil {
		return 0, err
	}
	if err := t.solver.Step(G.NodesToValueGrads(t.learnables)); err != nil {
		return 0, err
	}
	loss, ok := t.loss.Data().(float64)
	if !ok {
		return 0, fmt.Errorf("the loss is a %T, not a float64", t.loss.Data())
	}
	return loss, nil
}
