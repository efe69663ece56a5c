// Package program is TapeLab's small program language: one statement per
// line, parsed and checked into an op.Program that runs eagerly
// (autograd.Session) or compiled (graph.Builder → graph.CompileChecked),
// bit-identically, plus forward mode, a printer and the examples gallery.
// EagerAt, CompileAt and GradAt run a program in float32 storage (every
// leaf, constant and op result rounded to float32, the arithmetic inside
// one op in float64): equal bit for bit to a float32-storage reference
// recomputed op by op, and to PyTorch float32 within 1e-5 of each tensor's
// largest entry, the gap coming from PyTorch's float32 accumulation inside
// matmul, sum, softmax, the norms and conv2d (engine/README.md).
//
// # Grammar
//
//	program  = { line } .
//	line     = [ name "=" expr ] [ "#" comment ] newline .
//	expr     = term { ("+" | "-") term } .
//	term     = unary { ("*" | "/" | "@") unary } .
//	unary    = "-" unary | power .
//	power    = primary [ "**" exponent ] .          exponent: a number, e.g. 2, -1, 0.5
//	primary  = literal | name | call | "(" expr ")" .
//	call     = name "(" [ args ] ")" .
//	args     = expr { "," expr } { "," name "=" literal } [ "," ] .
//	literal  = [ "-" ] number | "[" literal { "," literal } [ "," ] "]" .
//
// Names are letters, digits and '_' (not starting with a digit); numbers are
// decimal with an optional fraction and exponent (1, 0.5, 2e-3). A line
// break inside parentheses or brackets continues the statement.
// Precedence, tightest first: ** (right of it only a number), unary −,
// then * / @, then + −, all left-associative; −x**2 is −(x²) as in Python.
//
// # Semantics
//
//   - name = param(LIT) makes a trainable leaf, name = input(LIT) a data
//     leaf; both receive gradients (students ask for dL/dx). LIT is a number
//     (shape []) or nested lists giving the shape ([[1, 2], [3, 4]] is
//     [2 2]). A bare literal in an expression is a constant without one.
//   - + − * / are the catalogue's add, sub, mul and div with NumPy/PyTorch
//     broadcasting: operands of different shapes are first broadcast with
//     the catalogue's broadcast_to (its VJP sums over the repeated axes),
//     so a scalar or a row broadcasts against a matrix.
//   - unary − is neg; x ** c is pow with the constant exponent c.
//   - @ is PyTorch's matmul for vectors and matrices: matrix·matrix is
//     matmul; a vector on the left is reshaped to a row, on the right to a
//     column, and the added axis is reshaped away from the product
//     (vector·vector gives a scalar).
//   - A call names an op of the catalogue exactly (tanh(z), softmax(z),
//     mse_loss(pred, target), concat(a, b, axis=1), …); attributes are
//     keyword arguments named as op.Attrs' fields in snake_case (alpha,
//     axis, shape, seed, stride, padding, kernel, eps), with PyTorch's
//     defaults where it has one (leaky_relu alpha=0.01, conv2d stride=1
//     padding=0, max_pool2d and avg_pool2d stride=kernel, batch_norm
//     eps=1e-5). As in PyTorch, sum(x, axis=k) and mean(x, axis=k) are
//     reduce_sum and reduce_mean. Every node runs the op's own forward, VJP, JVP and
//     chain-rule text from the catalogue; this package has no arithmetic
//     of its own.
//   - grad(y, x) is ∂y/∂x, with x's shape, for y a scalar expression and x
//     a variable: a param or input, or any value computed before y (held
//     fixed, as torch.autograd.grad holds a non-leaf). It is
//     differentiable again, as PyTorch's create_graph=True: the checker
//     records the reverse pass from y as ordinary nodes, one per op of
//     each VJP on the way (op.RecordVJP: the catalogue's VJPs written as
//     ops), so a later grad, the final backward, forward mode, eager and
//     compiled runs all go through it; grad may nest
//     (grad(sum(grad(f, w) * v), w) is a Hessian-vector product). Each
//     node it records carries its Origin: which grad (and its "∂y/∂x"
//     label) and which op's VJP rule made it. A y that does not depend
//     on x gives zeros. Every op of the catalogue records its VJP; an op
//     that could not (op.NotRecordable) would be an *Error naming it.
//   - A variable is assigned once; the program's output is its last
//     assignment. Backward seeds a scalar output with 1 and any other output
//     with ones (OnesSeed says which), so the gradients are those of the sum
//     of the output's entries.
//   - Node ids: the leaves first, in statement order, then one node per
//     constant and op application in evaluation order, as both backends
//     number them. Names maps each node id to its variable (the page's node
//     titles); nodes an expression makes on the way (broadcasts, the
//     reshapes of a vector @) have no name.
//
// Every parse, name, arity, attribute and shape error is an *Error naming
// line, column and the thing at fault, e.g.
// "line 3, col 9: matmul: [2 3] @ [2 3]: inner sizes 3 and 2 differ".
// Parse checks shapes with the ops' own shape rules without computing
// values; domain faults (log of a negative number) are reported the same
// way when the program runs.
//
// # Forward mode
//
// Forward runs the ops' JVPs over a recorded tape from a direction over
// the leaves (OneHot gives the one-hot of one entry of one leaf);
// CheckForward compares the output's tangent with ⟨gradient, direction⟩
// from reverse mode (exactly, or to Tol relative). An op without a JVP is
// named in Tangents.Missing instead of failing the pass.
//
// # Tests
//
// The error table covers each kind of fault with its exact message; a test
// reaches every op of the catalogue by name; property tests over 1,000
// random programs (randprog's, over every op, written out as text, and
// random expressions with broadcasting, @, ** and nesting) check that
// print → parse → run gives the same values and gradients bit for bit and
// that eager equals compiled; the outputs and gradients of the gallery and
// of testdata/programs (broadcasting, every @ case, ** and unary minus)
// equal PyTorch float64 to 1e-12 relative (testdata/torch_examples.json,
// written by testdata/torch_examples.py); the programs with grad of
// testdata/grad equal torch.autograd.grad(create_graph=True) to 1e-9
// relative (testdata/torch_grads.json, written by the same script); FuzzParse feeds the parser arbitrary text
// (no panic; what parses prints to text that parses to the same program).
package program
