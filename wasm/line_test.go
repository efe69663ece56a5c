//go:build js && wasm

package main

import (
	"strings"
	"testing"

	"tapelab/engine/autograd"
)

func TestEvalLine(t *testing.T) {
	s := autograd.NewSession()
	var g autograd.Grads
	tests := []struct{ x, y float64 }{
		{3, 7},
		{2.5, 6},
		{-0.5, 0},
		{0, 1},
		{-1e6, -1999999},
	}
	// The same session and grads serve every evaluation, as in the page.
	for _, tt := range tests {
		r, err := evalLine(s, &g, tt.x)
		if err != nil {
			t.Fatalf("x=%v: %v", tt.x, err)
		}
		if r.y != tt.y || r.dydx != 2 {
			t.Errorf("x=%v: y=%v dy/dx=%v, want y=%v dy/dx=2", tt.x, r.y, r.dydx, tt.y)
		}
		want := []struct {
			what    string
			value   float64
			grad    float64
			hasGrad bool
		}{
			{"param x", tt.x, 2, true},
			{"scale(#0) c=2", 2 * tt.x, 1, true},
			{"const", 1, 0, false},
			{"add(#1, #2)", tt.y, 1, true},
		}
		if len(r.nodes) != len(want) {
			t.Fatalf("x=%v: tape has %d nodes, want %d", tt.x, len(r.nodes), len(want))
		}
		for i, w := range want {
			n := r.nodes[i]
			if n.id != i || n.what != w.what || n.value != w.value || n.hasGrad != w.hasGrad || n.grad != w.grad {
				t.Errorf("x=%v: node %d = %+v, want %+v", tt.x, i, n, w)
			}
		}
		if r.nodes[3].rule == "" || r.nodes[0].rule != "" {
			t.Errorf("x=%v: op nodes need their chain rule, leaves none: %q, %q", tt.x, r.nodes[3].rule, r.nodes[0].rule)
		}
	}
}

func TestParseX(t *testing.T) {
	tests := []struct {
		in      string
		want    float64
		wantErr string
	}{
		{"3", 3, ""},
		{" -2.5 ", -2.5, ""},
		{"1e3", 1000, ""},
		{"", 0, "type a number"},
		{"   ", 0, "type a number"},
		{"abc", 0, `not "abc"`},
		{"1e400", 0, "finite"},
		{"NaN", 0, "finite"},
		{"-Inf", 0, "finite"},
	}
	for _, tt := range tests {
		got, err := parseX(tt.in)
		if tt.wantErr == "" {
			if err != nil || got != tt.want {
				t.Errorf("parseX(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("parseX(%q) error = %v, want one containing %q", tt.in, err, tt.wantErr)
		}
	}
}
