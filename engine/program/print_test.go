package program

import "testing"

// TestPrint pins the canonical text: spacing, only the parentheses
// precedence needs, numbers in shortest form, minus signs folded into
// numbers, comments and blank lines dropped.
func TestPrint(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a=param(2.0) # two\n\n\nb=a*a", "a = param(2)\nb = a * a\n"},
		{"a = param(2)\nb = -a ** 2", "a = param(2)\nb = -a ** 2\n"},
		{"a = param(2)\nb = (-a) ** 2", "a = param(2)\nb = (-a) ** 2\n"},
		{"b = (-2) ** 2\nc = -2 ** 2", "b = (-2) ** 2\nc = -2 ** 2\n"},
		{"a = param(2)\nb = (a - (a - a)) + (a + a)", "a = param(2)\nb = a - (a - a) + (a + a)\n"},
		{"a = param([[1, 2], [3, 4]])\nb = a @ (a @ a) / (a * a)", "a = param([[1, 2], [3, 4]])\nb = a @ (a @ a) / (a * a)\n"},
		{"a = param(1)\nb = a - -3 * - - a", "a = param(1)\nb = a - -3 * --a\n"},
		{"a = param(1)\nb = - -3", "a = param(1)\nb = 3\n"},
		{"x = input([1e-3, 0.1, 100000000000000000000, -0])\ny = sum(x,axis=0,)", "x = input([0.001, 0.1, 1e+20, -0])\ny = sum(x, axis=0)\n"},
		{"x = input([[1,\n  2],\n [3, 4]])\ny = reshape(x, shape = [4])", "x = input([[1, 2], [3, 4]])\ny = reshape(x, shape=[4])\n"},
		{"x = input(2)\ny = reshape(x, shape=[1, 1])\nz = reshape(y, shape=[])", "x = input(2)\ny = reshape(x, shape=[1, 1])\nz = reshape(y, shape=[])\n"},
	}
	for _, tc := range tests {
		p, err := Parse(tc.src)
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		if got := p.String(); got != tc.want {
			t.Errorf("%q printed\n%s\nwant\n%s", tc.src, got, tc.want)
		}
	}
}

// TestNamesAndSeed checks the mapping the page titles nodes with and the
// seeding rule it reports.
func TestNamesAndSeed(t *testing.T) {
	p, err := Parse("w = param([1, 2])\nx = input(3)\ny = w * x\nz = y\n")
	if err != nil {
		t.Fatal(err)
	}
	// nodes: w, x, broadcast_to(x), mul
	want := []string{"w", "x", "", "y"}
	if got := p.Names(); len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Errorf("names %q, want %q", got, want)
	}
	if p.Output() != 3 || !p.OnesSeed() || p.Seed().Shape.String() != "[2]" {
		t.Errorf("output %d, ones %v, seed %v", p.Output(), p.OnesSeed(), p.Seed())
	}
	if st := p.Statements(); len(st) != 4 || st[2].Name != "y" || st[2].Expr.At() != (Pos{3, 7}) {
		t.Errorf("statements %+v", st)
	}
	if name, at := p.OutputVar(); name != "z" || at != (Pos{4, 1}) {
		t.Errorf("output variable %s at %v", name, at)
	}
	r, err := p.Grad()
	if err != nil || !r.Ones || r.Grads[1].Data[0] != 3 || r.Grads[0].Data[0] != 3 {
		t.Errorf("grad %+v %v: with ones, dw = [3 3] and dx = 1 + 2 = 3", r, err)
	}
	q, _ := Parse("a = param(2)\nb = a * a\n")
	if q.OnesSeed() {
		t.Error("a scalar output is seeded with 1, not reported as ones")
	}
}
