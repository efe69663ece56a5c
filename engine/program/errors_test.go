package program

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestErrors lists a program for each kind of fault with the exact message
// it must give: line, column and the thing at fault.
func TestErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		// syntax
		{"", "line 1, col 1: the program is empty: write at least one statement `name = expression`"},
		{"# only a comment\n\n", "line 1, col 1: the program is empty: write at least one statement `name = expression`"},
		{"x = 1 $ 2", "line 1, col 7: unexpected character '$'"},
		{"x 1", "line 1, col 3: expected '=' after x, found number 1"},
		{"= 1", "line 1, col 1: expected a statement `name = expression`, found '='"},
		{"x = ", "line 1, col 5: expected an expression, found the end of the line"},
		{"x = (1 + 2", "line 1, col 11: expected ')' to close the '(' at line 1, col 5, found the end of the program"},
		{"x = 1 +\ny = 2", "line 1, col 8: expected an expression, found the end of the line"},
		{"x = 1 2", "line 1, col 7: expected the end of the line after the expression, found number 2"},
		{"x = 1e999", "line 1, col 5: number 1e999 is out of range"},
		{"a = param(2)\nb = a ** a", "line 2, col 10: **: the exponent must be a number (a constant), not an expression"},
		{"x = [1, [2]]", "line 1, col 9: list is ragged: a list where a number was expected"},
		{"x = [[1], 2]", "line 1, col 11: list is ragged: a number where a list was expected"},
		{"x = [[1, 2], [3]]", "line 1, col 16: list is ragged: 1 entries where the first list at this depth has 2"},
		{"x = []", "line 1, col 5: empty list: a tensor needs at least one entry"},
		{"x = tanh(1, 2", "line 1, col 14: expected ',' between the arguments of tanh, found the end of the program"},
		{"x = concat(axis=1, [1])", "line 1, col 20: concat: an argument follows the attributes; attributes (name=value) come last"},
		{"x = sum([1], axis=0, axis=0)", "line 1, col 22: sum: attribute axis is given twice"},
		{"x = " + nest(101), "line 1, col 105: expression nested more than 100 deep"},
		// names
		{"a = param(1)\nb = a * c", "line 2, col 9: undefined: c"},
		{"a = b\nb = param(1)", "line 1, col 5: b is used before it is assigned (on line 2)"},
		{"a = param(1)\na = a * 2", "line 2, col 1: a is already assigned on line 1; give the new value another name"},
		{"a = foo(1)", "line 1, col 5: unknown function foo: not an op of the catalogue (nor param or input)"},
		{"a = param(1)\nb = 2 * param(3)", "line 2, col 9: param(…) must be a statement's whole right-hand side, e.g. w = param(2.0)"},
		{"a = param(1, 2)", "line 1, col 5: param takes one literal, a number or a nested list (param(2.0), param([[1, 2], [3, 4]])), got 2 arguments"},
		{"a = param(1)\nb = input(a)", "line 2, col 11: input takes a literal (a number or a nested list), not an expression"},
		// arity
		{"a = param(1)\nb = mse_loss(a)", "line 2, col 5: mse_loss takes 2 arguments (P, T), got 1"},
		{"a = param(1)\nb = tanh(a, a)", "line 2, col 5: tanh takes 1 argument (X), got 2"},
		{"a = concat()", "line 1, col 5: concat takes at least 1 argument (X, …), got 0"},
		// attributes
		{"a = param([1, 2])\nb = sum(a, dim=0)", "line 2, col 12: sum: unknown attribute dim (it takes none)"},
		{"a = param([1, 2])\nb = reduce_sum(a)", "line 2, col 5: reduce_sum: missing attribute axis= (it takes axis)"},
		{"a = param([1, 2])\nb = reduce_sum(a, axis=0.5)", "line 2, col 24: reduce_sum: attribute axis must be an integer, got 0.5"},
		{"a = param([1, 2])\nb = reshape(a, shape=2)", "line 2, col 22: reshape: attribute shape must be a list of sizes, e.g. [2, 3] ([] for a scalar)"},
		{"a = param([1, 2])\nb = reshape(a, shape=[2, 0])", "line 2, col 22: reshape: attribute shape must be a list of sizes ≥ 1; entry 1 is 0"},
		{"a = param([1, 2])\nb = scale(a, alpha=[1])", "line 2, col 20: scale: attribute alpha must be a number, not a list"},
		{"a = param([1, 2])\nb = dropout(a, alpha=0.5, seed=-1)", "line 2, col 32: dropout: attribute seed must be an integer ≥ 0 (below 2⁵³), got -1"},
		{"a = param([1, 2])\nb = leaky_relu(a, slope=1)", "line 2, col 19: leaky_relu: unknown attribute slope (it takes alpha=0.01)"},
		{"a = param([1, 2])\nb = broadcast_to(a, shape=[1000, 1000, 1000])", "line 2, col 27: broadcast_to: attribute shape must be a shape of at most 1048576 entries"},
		// shapes
		{"a = param([[1, 2, 3], [4, 5, 6]])\nb = a @ a", "line 2, col 7: matmul: [2 3] @ [2 3]: inner sizes 3 and 2 differ"},
		{"a = param([1, 2])\nb = param(3)\nc = a @ b", "line 3, col 7: matmul: [2] @ []: @ multiplies vectors and matrices (rank 1 or 2)"},
		{"a = param([1, 2])\nb = param([1, 2, 3])\nc = a + b", "line 3, col 7: add: [2] + [3]: sizes 2 and 3 do not broadcast (only equal sizes or 1 do)"},
		{"a = param([[1, 2]])\nb = param([[1], [2], [3]])\nc = a * b\nd = c / param2", "line 4, col 9: undefined: param2"},
		{"a = param([1, 2])\nb = param([1, 2, 3])\nc = mse_loss(a, b)", "line 3, col 5: mse_loss([2], [3]): operand shapes differ"},
		{"a = param([[1, 2]])\nb = matmul(a, a)", "line 2, col 5: matmul([1 2], [1 2]): inner dimensions differ (2 vs 1)"},
		{"a = param([1, 2])\nb = reshape(a, shape=[3])", "line 2, col 5: reshape([2]): cannot reshape 2 values into shape [3] (3 values)"},
		{"a = param([1, 2])\nb = sum(a, axis=1)", "line 2, col 5: reduce_sum([2]): axis 1 is out of range for rank 1"},
		{"a = param(2)\nb = a ** 1e400", "line 2, col 10: number 1e400 is out of range"},
	}
	for _, tc := range tests {
		_, err := Parse(tc.src)
		var e *Error
		if err == nil || !errors.As(err, &e) || err.Error() != tc.want {
			t.Errorf("Parse(%q):\n got %v\nwant %s", tc.src, err, tc.want)
		}
	}
}

// nest returns n opening parentheses around 1.
func nest(n int) string {
	s := ""
	for i := 0; i < n; i++ {
		s += "("
	}
	s += "1"
	for i := 0; i < n; i++ {
		s += ")"
	}
	return s
}

// TestNestingLimit checks that the limit in the nesting message is the real
// one for every construct that nests: each parenthesis, call, list bracket,
// unary minus and exponent is one level, 100 levels parse and 101 give the
// message, pointing at the level too many.
func TestNestingLimit(t *testing.T) {
	wrap := func(n int, open, inner, close string) string {
		return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
	}
	const a = "a = param(1)\n"
	tests := []struct {
		name string
		src  func(n int) string
		col  int // of the 101st level
	}{
		{"parentheses", func(n int) string { return a + "x = " + wrap(n, "(", "a", ")") }, 105},
		{"calls", func(n int) string { return a + "x = " + wrap(n, "tanh(", "a", ")") }, 509},
		{"lists in param(…)", func(n int) string { return "x = param(" + wrap(n-1, "[", "1", "]") + ")" }, 110},
		{"unary minuses", func(n int) string { return a + "x = " + strings.Repeat("-", n) + "a" }, 105},
		{"mixed", func(n int) string { return a + "x = " + wrap(50, "(-", strings.Repeat("-", n-100)+"a", ")") }, 105},
	}
	for _, tc := range tests {
		if _, err := Parse(tc.src(100)); err != nil {
			t.Errorf("%s, 100 deep: %v, want it to parse", tc.name, err)
		}
		want := fmt.Sprintf("line 2, col %d: expression nested more than 100 deep", tc.col)
		if strings.HasPrefix(tc.name, "lists") {
			want = fmt.Sprintf("line 1, col %d: expression nested more than 100 deep", tc.col)
		}
		if _, err := Parse(tc.src(101)); err == nil || err.Error() != want {
			t.Errorf("%s, 101 deep:\n got %v\nwant %s", tc.name, err, want)
		}
	}
	// An exponent is a level: x ** 2 ** 2 … nests to the right.
	chain := func(n int) string { return a + "x = a" + strings.Repeat(" ** 2", n) }
	if _, err := Parse(chain(101)); err == nil || !strings.Contains(err.Error(), "nested more than 100 deep") {
		t.Errorf("101 exponents: %v, want the nesting message", err)
	}
}

// TestRunErrors checks that a domain fault found while running names the
// line and column of the op at fault, eagerly and compiled alike.
func TestRunErrors(t *testing.T) {
	p, err := Parse("a = param([1, -2])\nb = a * 2\nc = log(b)\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "line 3, col 5: log([2]): X[1] = -4 is negative; log needs X ≥ 0"
	if _, err := p.Eager(); err == nil || err.Error() != want {
		t.Errorf("eager: %v, want %s", err, want)
	}
	if _, err := p.Compile(); err == nil || err.Error() != want {
		t.Errorf("compiled: %v, want %s", err, want)
	}
}
