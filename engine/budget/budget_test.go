package budget_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"tapelab/engine/budget"
	"tapelab/engine/nn"
	"tapelab/engine/program"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
)

// chain returns a program of a first line and then n lines, line(i) for
// i = 1 … n.
func chain(first string, n int, line func(i int) string) string {
	var b strings.Builder
	b.WriteString(first)
	for i := 1; i <= n; i++ {
		b.WriteString(line(i) + "\n")
	}
	return b.String()
}

// TestHostileProgramsAreRefused: the documents that took the server or a
// tab down are over the budget, and the error names the part at fault
// and by how much.
func TestHostileProgramsAreRefused(t *testing.T) {
	n := strconv.Itoa
	for _, c := range []struct {
		name, src string
		want      []string
	}{
		{"300 products of 1024² values",
			chain("m = broadcast_to(0.5, shape=[1024, 1024])\na0 = m * m\n", 300, func(i int) string { return "a" + n(i) + " = a" + n(i-1) + " * m" }),
			[]string{"the program: 6.3e8 elements held in all, the limit is 1.6e7 (40× over)", "the largest part is broadcast_to at line 1"}},
		{"conv2d of a 1024² image with a 512² kernel",
			"x = broadcast_to(1.0, shape=[1, 1, 1024, 1024])\nw = broadcast_to(0.5, shape=[1, 1, 512, 512])\nb = param([0.0])\ny = conv2d(x, w, b)\n",
			[]string{"conv2d at line 4: 2.1e11 multiply-adds, the limit is 1e9 (207× over)"}},
		{"8 chained 1024² products",
			chain("m = broadcast_to(0.5, shape=[1024, 1024])\na0 = m\n", 8, func(i int) string { return "a" + n(i) + " = a" + n(i-1) + " @ m" }),
			[]string{"matmul at line 3: 3.2e9 multiply-adds, the limit is 1e9 (3.2× over); 2.6e10 in the program"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := program.Parse(c.src)
			if err != nil {
				t.Fatal(err)
			}
			err = budget.CheckProgram(p)
			var be *budget.Error
			if !errors.As(err, &be) {
				t.Fatalf("CheckProgram = %v, want a *budget.Error", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// TestLongChainIsWithinBudget: the 3,763-line chain that ran the server
// out of memory drawing it is within the work budget (its first view must
// be drawn in linear size, not refused).
func TestLongChainIsWithinBudget(t *testing.T) {
	src := chain("x = param(1.0)\na0 = x * 1\n", 3762, func(i int) string {
		return "a" + strconv.Itoa(i) + " = a" + strconv.Itoa(i-1) + " + x"
	})
	p, err := program.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := budget.CheckProgram(p); err != nil {
		t.Fatal(err)
	}
}

// TestWideModelIsRefused: 200 linear layers of 4096 are a 6.7 KB document
// whose parameters alone are 3.4e9 numbers; the error names the first
// layer, which alone is over the limit.
func TestWideModelIsRefused(t *testing.T) {
	layers := make([]nn.Layer, 200)
	for i := range layers {
		layers[i] = nn.NewLinear(4096)
	}
	m := spec.New(tensor.Shape{4096}, nn.MSE, layers...)
	err := budget.CheckModel(m, 0)
	want := "layer 0 (linear): 3.4e7 elements held, the limit is 1.6e7 (2.1× over); 6.7e9 in the model"
	if err == nil || err.Error() != want {
		t.Fatalf("CheckModel = %v, want %q", err, want)
	}
}

// TestEvaluationIsMeasured: a model whose training batch is small but
// which is evaluated over many examples is measured over all of them.
func TestEvaluationIsMeasured(t *testing.T) {
	m := spec.New(tensor.Shape{2}, nn.MSE, nn.NewLinear(4096), nn.ReLU{}, nn.NewLinear(1))
	if err := budget.CheckModel(m, 100); err != nil {
		t.Fatalf("100 examples: %v", err)
	}
	err := budget.CheckModel(m, 100_000)
	want := "layer 0 (linear): 4.1e8 elements held, the limit is 1.6e7 (26× over)"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("100,000 examples: %v, want %q", err, want)
	}
}

// TestAmount: counts are written in full up to 100,000 and with two
// significant digits above, a power of ten as one.
func TestAmount(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{{0, "0"}, {20000, "20000"}, {100000, "100000"}, {1e9, "1e9"}, {7.04e10, "7.0e10"}, {16e6, "1.6e7"}, {2.5, "2.5e0"}} {
		if got := budget.Amount(c.v); got != c.want {
			t.Errorf("Amount(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

// TestShortExpressionsAreCounted: a program of many short terms on one
// line is within the size limit of a document but over the node limit.
func TestShortExpressionsAreCounted(t *testing.T) {
	src := "x = param(1.0)\ny = x" + strings.Repeat(" + x", 6000) + "\n"
	p, err := program.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	err = budget.CheckProgram(p)
	if err == nil || err.Error() != "add at line 2: 6000 tape nodes, the limit is 5000 (1.2× over); 6001 in the program" {
		t.Fatalf("CheckProgram = %v", err)
	}
}
