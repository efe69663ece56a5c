package servertest

import (
	"encoding/json"
	"fmt"
	"strings"
)

// HeavyDoc is a shared document that is dear to draw as a first view.
type HeavyDoc struct {
	// Name says what it is in test output.
	Name string
	// Doc is the document as POST /api/share takes it.
	Doc []byte
	// Undrawn is set when its first view is over web/firstview's size cap,
	// so its page is always the one the wasm fills in.
	Undrawn bool
}

// HeavyDocs returns the dearest documents the share service takes, to
// load the server's first views with: each is within engine/budget's
// default limits (5,000 nodes, 15,000 edges, 1.6e7 elements held, 1e9
// multiply-adds for a forward and a backward pass), which POST
// /api/share enforces, and together they come close to each of them
// (TestHeavyDocsAreNearTheBudget): the most multiply-adds, the most
// elements, the longest tape the 64 KiB text limit allows, the most
// parameters, and the 1,000-statement chain, the largest first view that
// is drawn rather than left to the wasm. A new kind of dear document is
// one more entry.
func HeavyDocs() []HeavyDoc {
	return []HeavyDoc{
		{"conv2d, 8.8e8 multiply-adds forward and backward", programDoc(convProgram), false},
		{"six 1000² values, 1.2e7 elements held", programDoc(elementsProgram), false},
		{"a chain of 3,700 additions", programDoc(chainProgram(3700)), true},
		{"a chain of 1,000 additions", programDoc(chainProgram(1000)), false},
		{"wide linear layers, 7.3e6 parameters", []byte(`{"version":1,"input":[2],"layers":[` +
			`{"type":"linear","out":2700},{"type":"tanh"},{"type":"linear","out":2700},{"type":"tanh"},{"type":"linear","out":1}],"loss":"mse"}`), false},
	}
}

// elementsProgram holds six values of a million elements each, with
// their gradients: 1.2e7 of the budget's 1.6e7 elements.
const elementsProgram = `x = param(0.5)
m = broadcast_to(x, shape=[1000, 1000])
a1 = m * m
a2 = a1 * m
a3 = a2 * m
a4 = a3 * m
L = sum(a4 * m)
`

// convProgram is one convolution of a [1 32 128 128] image by 64 filters
// of [32 3 3], summed to a scalar: 64·32·9·126·126 ≈ 2.9e8 multiply-adds
// forward, twice that backward (to the image and to the filters), and
// some 3.2e6 elements held.
const convProgram = `x0 = param(0.5)
w0 = param(0.1)
b0 = param(0.0)
x = broadcast_to(x0, shape=[1, 32, 128, 128])
w = broadcast_to(w0, shape=[64, 32, 3, 3])
b = broadcast_to(b0, shape=[64])
y = conv2d(x, w, b)
L = sum(sum(sum(sum(y, axis=3), axis=2), axis=1), axis=0)
`

// chainProgram returns the program a0 = x, aN = aN-1 + x for N up to n:
// n+1 statements, each a node with a fan-in edge from x, the tape the
// longest for its text.
func chainProgram(n int) string {
	var b strings.Builder
	b.WriteString("x = param(1.0)\na0 = x\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "a%d = a%d + x\n", i, i-1)
	}
	return b.String()
}

// programDoc returns the program document of src.
func programDoc(src string) []byte {
	doc, err := json.Marshal(struct {
		Version int    `json:"version"`
		Program string `json:"program"`
	}{1, src})
	if err != nil {
		panic(err) // a struct of an int and a string always marshals
	}
	return doc
}
