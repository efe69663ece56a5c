package budget

import (
	"strconv"

	"tapelab/engine/autograd"
	"tapelab/engine/graph"
	"tapelab/engine/nn"
	"tapelab/engine/op"
	"tapelab/engine/program"
	"tapelab/engine/tensor"
)

// reverse is how many passes' worth of arithmetic one forward and one
// reverse pass cost together: a vector-Jacobian product costs about two
// forward evaluations (one per operand for a product).
const reverse = 3

// Graph measures one forward and one backward pass of g: each value is a
// tape node holding its value and its gradient, each operand reference is
// an edge, and each op costs its op.Op.MultiplyAdds forward and twice that
// backward. part names the piece of the document value id comes from;
// values with the same name are added into one Part, in the order the
// names first appear. whole names the document.
func Graph(g *graph.Graph, whole string, part func(id int) string) Cost {
	return measure(g, whole, part, true)
}

// measure is Graph, or with backward false the cost of a forward pass
// alone: each node holds its value and no gradient, each op costs its
// forward multiply-adds.
func measure(g *graph.Graph, whole string, part func(id int) string, backward bool) Cost {
	held, work := 2.0, float64(reverse)
	if !backward {
		held, work = 1, 1
	}
	c := Cost{Whole: whole}
	index := map[string]int{}
	var in []tensor.Shape
	for id, v := range g.Values {
		name := part(id)
		k, ok := index[name]
		if !ok {
			k = len(c.Parts)
			index[name] = k
			c.Parts = append(c.Parts, Part{Name: name, Node: id})
		}
		p := &c.Parts[k]
		p.Nodes++
		p.Elements += held * float64(v.Shape.Size())
		if v.Kind != autograd.OpNode {
			continue
		}
		p.Edges += len(v.Args)
		in = in[:0]
		for _, a := range v.Args {
			in = append(in, g.Values[a].Shape)
		}
		p.MultiplyAdds += work * v.Op.MultiplyAdds(v.Shape, in, v.Attrs)
	}
	return c
}

// Program measures a checked program, naming each part by its op (or
// leaf) and line: "conv2d at line 4", "x at line 1".
func Program(p *program.Program) (Cost, error) {
	g, err := p.Graph()
	if err != nil {
		return Cost{}, err
	}
	names := p.Names()
	return Graph(g, "the program", func(id int) string {
		what := names[id]
		if v := g.Values[id]; v.Kind == autograd.OpNode {
			what = v.Op.Name
		} else if v.Kind == autograd.Const {
			what = "a constant"
		}
		return what + " at line " + strconv.Itoa(p.Pos(id).Line)
	}), nil
}

// Model measures one training step of a sequence with its loss on a
// batch of the given number of examples: the forward pass, the loss and
// the backward pass. Parts are the layers, named as nn's errors name them
// ("layer 3 (linear)", counting from 0 like the parameter names), the
// batch ("the input batch") and the loss ("the loss (mse)").
func Model(seq *nn.Seq, loss nn.Loss, batch int) (Cost, error) {
	return model(seq, loss, batch, true)
}

// Evaluation measures the forward pass of a sequence with its loss over
// the given number of examples, as an evaluation of the model runs it:
// values only, no gradients. Parts are named as Model names them.
func Evaluation(seq *nn.Seq, loss nn.Loss, rows int) (Cost, error) {
	return model(seq, loss, rows, false)
}

func model(seq *nn.Seq, loss nn.Loss, batch int, backward bool) (Cost, error) {
	b := graph.NewBuilder()
	names := []string{}
	mark := func(name string) {
		for len(names) < b.Len() {
			names = append(names, name)
		}
	}
	x := b.Input("x", append(tensor.Shape{batch}, seq.Input()...))
	mark("the input batch")
	ps := seq.Params()
	vals := make([]op.Value, len(ps))
	for i := 0; i < seq.Len(); i++ {
		lo, hi := seq.LayerParams(i)
		for j := lo; j < hi; j++ {
			vals[j] = b.Leaf(ps[j].Name, ps[j].Shape, autograd.Param, !ps[j].Buffer)
		}
		mark(LayerPart(i, seq.Layer(i).Type()))
	}
	mode := nn.Train
	if !backward {
		mode = nn.Eval
	}
	for i := 0; i < seq.Len(); i++ {
		lo, hi := seq.LayerParams(i)
		x = seq.Layer(i).Forward(b, x, vals[lo:hi], mode, 0)
		mark(LayerPart(i, seq.Layer(i).Type()))
	}
	y := b.Input("y", append(tensor.Shape{batch}, loss.Target(seq.Output())...))
	loss.Apply(b, x, y)
	mark("the loss (" + loss.String() + ")")
	g, err := b.Graph()
	if err != nil {
		return Cost{}, err
	}
	return measure(g, "the model", func(id int) string { return names[id] }, backward), nil
}

// LayerPart is the name of layer i, of type typ, as a part of a model's
// Cost: "layer 3 (linear)", as nn's errors name it.
func LayerPart(i int, typ string) string {
	return "layer " + strconv.Itoa(i) + " (" + typ + ")"
}
