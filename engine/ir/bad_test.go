package ir

import (
	"os"
	"strings"
	"testing"
)

// mlpDoc returns testdata/mlp.json with the replacements old→new applied
// in order (each must match).
func mlpDoc(t *testing.T, repl ...string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/mlp.json")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for i := 0; i < len(repl); i += 2 {
		if !strings.Contains(s, repl[i]) {
			t.Fatalf("testdata/mlp.json has no %q", repl[i])
		}
		s = strings.Replace(s, repl[i], repl[i+1], 1)
	}
	return []byte(s)
}

// TestDecodeErrorsNameThePath feeds malformed documents to Decode and checks
// that each error names the JSON path at fault.
func TestDecodeErrorsNameThePath(t *testing.T) {
	for _, tc := range []struct {
		name string
		repl []string
		want string
	}{
		{"not JSON", []string{`{"format"`, `{format`}, "(document): invalid JSON"},
		{"trailing data", []string{`}}}}` + "\n", `}}}} {}`}, "unexpected data after the top-level value"},
		{"wrong format", []string{`tapelab.ir.v1`, `torchlean.ir.v1`}, `format: want "tapelab.ir.v1", got "torchlean.ir.v1"`},
		{"unknown top-level field", []string{`"nodes":`, `"extra": 1, "nodes":`}, "extra: unknown field"},
		{"duplicate key", []string{`"nodes":`, `"format": "x", "nodes":`}, "format: duplicate key"},
		{"missing nodes", []string{`"nodes":`, `"nodez":`}, "nodez: unknown field"},
		{"nodes not an array", []string{`"nodes": [`, `"nodes": {"a": [`, `"bias": {"name"`, `"bias": {"name"`, `}}}}`, `}}}}}`}, "nodes: want an array"},
		{"fractional id", []string{`"id": 2,`, `"id": 2.5,`}, "nodes[2].id: want an integer in [0, 2147483647], got 2.5"},
		{"negative parent", []string{`"parents": [1]`, `"parents": [-1]`}, "nodes[2].parents[0]: want an integer in [0, 2147483647], got -1"},
		{"string parent", []string{`"parents": [1]`, `"parents": ["1"]`}, "nodes[2].parents[0]: want an integer, got a string"},
		{"null kind", []string{`"kind": "tanh"`, `"kind": null`}, "nodes[2].kind: want a string, got null"},
		{"zero dimension", []string{`"out_shape": [3, 2]}`, `"out_shape": [3, 0]}`}, "nodes[0].out_shape[1]: want an integer in [1, 2147483647], got 0"},
		{"unknown node field", []string{`"kind": "tanh"`, `"kind": "tanh", "name": "h"`}, "nodes[2].name: unknown field"},
		{"unknown attr", []string{`"attrs": {"input": 1}`, `"attrs": {"input": 1, "dim": 0}`}, "nodes[6].attrs.dim: unknown field"},
		{"huge alpha", []string{`"attrs": {"input": 1}`, `"attrs": {"alpha": 1e999}`}, "nodes[6].attrs.alpha: 1e999 is outside the float64 range"},
		{"negative seed", []string{`"attrs": {"input": 1}`, `"attrs": {"seed": -3}`}, "nodes[6].attrs.seed: want an unsigned 64-bit integer, got -3"},
		{"payload key not an id", []string{`"3": {"value"`, `"03": {"value"`}, `payload["03"]: key must be a node id`},
		{"payload role unknown", []string{`"3": {"value"`, `"3": {"values"`}, `payload["3"].values: unknown field`},
		{"data not numbers", []string{`[1.5, -0.75]`, `[1.5, null]`}, `payload["3"].value.data[1]: want a number, got null`},
		{"data missing", []string{`"shape": [1], "data": [0.125]`, `"shape": [1]`}, `payload["4"].value.data: missing`},
		{"name not a string", []string{`"name": "2.weight"`, `"name": 2`}, `payload["3"].value.name: want a string, got a number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode(mlpDoc(t, tc.repl...))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Decode error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestCheckErrorsNameTheNode breaks decoded graphs structurally and by
// shape, and checks that Check, CheckShapes and Lower each fail with the
// node named and the reason.
func TestCheckErrorsNameTheNode(t *testing.T) {
	for _, tc := range []struct {
		name string
		repl []string
		want string
	}{
		{"id not index", []string{`"id": 2,`, `"id": 7,`}, "node at index 2 has id 7: ids must equal indices"},
		{"parent after child", []string{`"parents": [1]`, `"parents": [3]`}, "node 2 (tanh): parent 0 is node 3, but parents must be earlier nodes (0..1)"},
		{"self parent", []string{`"parents": [1]`, `"parents": [2]`}, "node 2 (tanh): parent 0 is node 2"},
		{"too many parents", []string{`"parents": [1]`, `"parents": [1, 0]`}, "node 2 (tanh): takes 1 parent, has 2"},
		{"linear with two parents", []string{`"parents": [2, 3, 4]`, `"parents": [2, 3]`}, "node 5 (linear): takes 1 (weights in the payload) or 3 parents, has 2"},
		{"leaf with parents", []string{`"parents": [], "kind": "param"`, `"parents": [0], "kind": "param"`}, "node 3 (param): takes no parents, has 1"},
		{"unknown kind", []string{`"kind": "tanh"`, `"kind": "layernorm"`}, `node 2 (layernorm): unknown kind "layernorm"`},
		{"const without payload", []string{`"4": {"value": {"shape": [1], "data": [0.125]}}`, `"2": {"value": {"shape": [1], "data": [0.125]}}`}, "node 2 (tanh): takes no payload"},
		{"linear without payload", []string{`"1": {"weight"`, `"9": {"weight"`}, "node 1 (linear): payload has no weight"},
		{"payload for a missing node", []string{`"3": {"value"`, `"3": {"value": {"shape": [1, 2], "data": [1, 2]}}, "12": {"value"`}, "payload 12: there is no node 12"},
		{"data does not fit shape", []string{`[1.5, -0.75]`, `[1.5]`}, "node 3 (param): payload value has shape [1 2] (2 values) but holds 1 values"},
		{"input gap", []string{`"attrs": {"input": 1}`, `"attrs": {"input": 2}`}, "node 6 (input): reads input 2, but no node reads input 1"},
		{"too many elements", []string{`"out_shape": [3, 2]}`, `"out_shape": [300000, 300000]}`}, "node 0 (input): out_shape [300000 300000]: more than 67108864 elements"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := Decode(mlpDoc(t, tc.repl...))
			if err != nil {
				t.Fatal(err)
			}
			for name, f := range map[string]func(*Graph) error{
				"Check": Check, "CheckShapes": CheckShapes,
				"Lower": func(g *Graph) error { _, err := Lower(g); return err },
			} {
				if err := f(g); err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s error = %v, want it to contain %q", name, err, tc.want)
				}
			}
		})
	}
	for _, tc := range []struct {
		name string
		repl []string
		want string
	}{
		{"declared shape wrong", []string{`"kind": "tanh", "out_shape": [3, 2]`, `"kind": "tanh", "out_shape": [2, 3]`}, "node 2 (tanh): declared out_shape [2 3], but its inputs give [3 2]"},
		{"payload weight does not fit", []string{`"shape": [2, 2], "data": [0.5, -1, 0.25, 2]`, `"shape": [2, 4], "data": [0.5, -1, 0.25, 2, 0, 0, 0, 0]`}, "node 1 linear([3 2], [2 4], [2]): X has 2 features but W [out in] expects 4"},
		{"mse of unlike shapes", []string{`"out_shape": [3, 1], "attrs"`, `"out_shape": [3, 2], "attrs"`}, "node 7 mse_loss([3 1], [3 2]): operand shapes differ"},
		{"an input read with two shapes", []string{`"out_shape": [3, 1], "attrs": {"input": 1}`, `"out_shape": [3, 1]`}, "node 6 (input): reads input 0 with shape [3 1], but node 0 reads it with shape [3 2]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := Decode(mlpDoc(t, tc.repl...))
			if err != nil {
				t.Fatal(err)
			}
			if err := Check(g); err != nil {
				t.Fatalf("Check: %v (the fault is one of shapes only)", err)
			}
			for name, f := range map[string]func(*Graph) error{
				"CheckShapes": CheckShapes,
				"Lower":       func(g *Graph) error { _, err := Lower(g); return err },
				"Denote":      func(g *Graph) error { _, err := Denote(g); return err },
			} {
				if err := f(g); err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s error = %v, want it to contain %q", name, err, tc.want)
				}
			}
		})
	}
}
