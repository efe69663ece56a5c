package tapesvg

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
	"tapelab/wasm/app"
)

func TestStateClasses(t *testing.T) {
	for _, tc := range []struct {
		st   app.State
		want string
	}{
		{0, ""},
		{app.Next, " next"},
		{app.Known | app.Focus, " known focus"},
		{app.Known | app.HasGrad | app.Final | app.Ran, " known has-grad final ran"},
		{app.Skipped | app.Side, " skipped"},
		{app.Extra | app.Side, " extra"},
		{app.Side, " zero"},
	} {
		if got := StateClasses(tc.st); got != tc.want {
			t.Errorf("StateClasses(%b) = %q, want %q", tc.st, got, tc.want)
		}
	}
}

// TestWrite draws a small tape (x·W then tanh) and checks that each node is
// a group at its box with its title, shape and role, and that every edge
// is drawn.
func TestWrite(t *testing.T) {
	nodes := []app.NodeInfo{
		{ID: 0, Kind: autograd.Input, Label: "x", Shape: tensor.Shape{4, 2}, Role: "input"},
		{ID: 1, Kind: autograd.Param, Label: "0.weight", Shape: tensor.Shape{2, 3}},
		{ID: 2, Kind: autograd.OpNode, Label: "a<b", Shape: tensor.Shape{4, 3}, Parents: []int{0, 1}},
		{ID: 3, Kind: autograd.OpNode, Label: "tanh", Shape: tensor.Shape{4, 3}, Parents: []int{2}, Role: "prediction"},
	}
	lay, err := app.Layout(nodes)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	Write(&b, nodes, []app.State{app.Known, 0, app.Next}, lay)
	svg := b.String()
	if n := strings.Count(svg, `<path class="edge"`); n != 3 {
		t.Errorf("%d edges drawn, want 3", n)
	}
	for i, n := range nodes {
		box := lay.Boxes[i]
		open := regexp.MustCompile(`<g class="node [a-z -]*" data-node="` + strconv.Itoa(i) + `" transform="translate\(` +
			regexp.QuoteMeta(F1(box.X)+" "+F1(box.Y)) + `\)">`)
		if !open.MatchString(svg) {
			t.Errorf("node %d is not a group translated to its box (%v, %v)", i, box.X, box.Y)
		}
		title := strings.ReplaceAll(n.Title(), "<", "&lt;")
		if !strings.Contains(svg, ">"+title+"</text>") {
			t.Errorf("node %d's title %q is not drawn", i, title)
		}
	}
	for _, want := range []string{
		`class="node input known"`, `class="node param"`, `class="node op next"`, `class="node op"`,
		`>param</text>`, `>prediction</text>`, `>[4 2]</text>`,
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("the drawing has no %s", want)
		}
	}
	if strings.Contains(svg, "a<b") {
		t.Error("a title's < is not escaped")
	}
}

// TestSignature checks that the signature names the drawing: the same
// tape in the same states has the same one, and any change a person would
// see (a title, a shape, a state, a box's place) gives another.
func TestSignature(t *testing.T) {
	tape := func() []app.NodeInfo {
		return []app.NodeInfo{
			{ID: 0, Kind: autograd.Input, Label: "x", Shape: tensor.Shape{4, 2}, Role: "input"},
			{ID: 1, Kind: autograd.Param, Label: "0.weight", Shape: tensor.Shape{2, 3}},
			{ID: 2, Kind: autograd.OpNode, Label: "matmul", Shape: tensor.Shape{4, 3}, Parents: []int{0, 1}},
		}
	}
	sig := func(nodes []app.NodeInfo, states []app.State, move float64) string {
		lay, err := app.Layout(nodes)
		if err != nil {
			t.Fatal(err)
		}
		lay.Boxes[2].X += move
		return Signature(nodes, states, lay)
	}
	base := sig(tape(), []app.State{0, 0, app.Next}, 0)
	if again := sig(tape(), []app.State{0, 0, app.Next}, 0); again != base {
		t.Fatalf("the same drawing has two signatures: %s and %s", base, again)
	}
	renamed, reshaped := tape(), tape()
	renamed[2].Label = "matmul2"
	reshaped[1].Shape = tensor.Shape{2, 4}
	for _, tc := range []struct {
		name string
		sig  string
	}{
		{"a title", sig(renamed, []app.State{0, 0, app.Next}, 0)},
		{"a shape", sig(reshaped, []app.State{0, 0, app.Next}, 0)},
		{"a state", sig(tape(), []app.State{app.Known, 0, app.Next}, 0)},
		{"a box's place", sig(tape(), []app.State{0, 0, app.Next}, 0.5)},
	} {
		if tc.sig == base {
			t.Errorf("changing %s keeps the signature %s", tc.name, base)
		}
	}
}
