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
}

// HeavyDocs returns the dearest documents the share service takes, to
// load the server's first views with: each is within engine/budget's
// default limits (20,000 nodes, 60,000 edges, 8e6 elements held, 1e9
// multiply-adds for a forward and a backward pass), which POST
// /api/share is to enforce, and is the largest of its kind whose first
// view is drawn today in a second or so. A new kind of dear document is
// one more entry.
//
// The chain stops at 300 statements because the first view's drawing
// grows with the square of a program's length today (300 statements: a
// 22 MB page, 0.6 s; 1,000: 285 MB); once it grows linearly, the chain
// should be the 1,000 statements of the budget's worst case.
func HeavyDocs() []HeavyDoc {
	return []HeavyDoc{
		{"conv2d, 2.9e8 multiply-adds forward", programDoc(convProgram)},
		{"a chain of 300 additions", programDoc(chainProgram(300))},
		{"a chain of 200 additions", programDoc(chainProgram(200))},
		{"wide linear layers, 3.2e6 parameters", []byte(`{"version":1,"input":[2],"layers":[` +
			`{"type":"linear","out":1800},{"type":"tanh"},{"type":"linear","out":1800},{"type":"tanh"},{"type":"linear","out":1}],"loss":"mse"}`)},
	}
}

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
