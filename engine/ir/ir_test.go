package ir

import (
	"bytes"
	"math"
	"os"
	"reflect"
	"testing"

	"tapelab/engine/graph"
	"tapelab/engine/tensor"
)

func readGraph(t *testing.T, path string) *Graph {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Decode(data)
	if err != nil {
		t.Fatalf("Decode(%s): %v", path, err)
	}
	return g
}

// TestMLPByHand checks Denote on a small graph against values computed by
// hand, and that Lower then graph.Eval gives the same bits.
func TestMLPByHand(t *testing.T) {
	g := readGraph(t, "testdata/mlp.json")
	x := tensor.Matrix([][]float64{{1, 2}, {0, -1}, {0.5, 0.5}})
	y := tensor.Matrix([][]float64{{1}, {0}, {-1}})
	vals, err := Denote(g, x, y)
	if err != nil {
		t.Fatal(err)
	}
	// By hand: h = tanh(x·W0ᵀ + b0), p = h·W2ᵀ + 0.125, loss = mean((p−y)²).
	w0 := [][]float64{{0.5, -1}, {0.25, 2}}
	b0 := []float64{0.1, -0.2}
	w2 := []float64{1.5, -0.75}
	loss := 0.0
	for r := 0; r < 3; r++ {
		p := 0.125
		for o := 0; o < 2; o++ {
			h := math.Tanh(x.At(r, 0)*w0[o][0] + x.At(r, 1)*w0[o][1] + b0[o])
			if got := vals[2].At(r, o); math.Abs(got-h) > 1e-15 {
				t.Errorf("h[%d][%d] = %v, want %v", r, o, got, h)
			}
			p += h * w2[o]
		}
		if got := vals[5].At(r, 0); math.Abs(got-p) > 1e-15 {
			t.Errorf("p[%d] = %v, want %v", r, got, p)
		}
		loss += (p - y.At(r, 0)) * (p - y.At(r, 0))
	}
	if got := vals[7].Data[0]; math.Abs(got-loss/3) > 1e-15 {
		t.Errorf("loss = %v, want %v", got, loss/3)
	}

	lg, ids, err := LowerIDs(g)
	if err != nil {
		t.Fatal(err)
	}
	feed, err := Feed(g, x, y)
	if err != nil {
		t.Fatal(err)
	}
	got, err := graph.Eval(lg, feed)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vals {
		if !tensor.Identical(got[ids[i]], v) {
			t.Errorf("node %d: lowered %v, denoted %v", i, got[ids[i]], v)
		}
	}
	names := []string{}
	for _, id := range lg.Inputs() {
		names = append(names, lg.Values[id].Name)
	}
	if want := []string{"input0", "input1", "0.weight", "0.bias", "2.weight"}; !reflect.DeepEqual(names, want) {
		t.Errorf("lowered leaves %q, want %q", names, want)
	}
}

// TestEncodeRoundTrip checks Decode(Encode(g)) == g and that encoding is
// stable, with -0, tiny and huge numbers and every attr field set.
func TestEncodeRoundTrip(t *testing.T) {
	g := readGraph(t, "testdata/mlp.json")
	g.Payload[4].Value.Data[0] = math.Copysign(0, -1)
	g.Payload[1].Weight.Data[0] = 5e-324
	g.Payload[1].Weight.Data[1] = -1.7976931348623157e308
	g.Payload[1].Bias.Data[0] = 0.1 + 0.2
	g.Nodes[2].Attrs = everyAttr(t)
	data, err := Encode(g)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(data)
	if err != nil {
		t.Fatalf("Decode(Encode(g)): %v\n%s", err, data)
	}
	if !sameGraph(g, back) {
		t.Fatalf("round trip changed the graph:\n%s", data)
	}
	again, err := Encode(back)
	if err != nil || !bytes.Equal(again, data) {
		t.Fatalf("encoding is not stable: %v\n%s\n%s", err, data, again)
	}
}
