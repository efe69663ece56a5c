package train_test

import (
	"strings"
	"testing"

	"tapelab/engine/tensor"
	"tapelab/engine/train"
)

func TestReadCSV(t *testing.T) {
	d, err := train.ReadCSV(strings.NewReader("x1, x2, label\n1, 2, 0\n\n3,4.5,1\n-1e3,0,1\n"), 1)
	if err != nil {
		t.Fatal(err)
	}
	if !tensor.Identical(d.X, tensor.Matrix([][]float64{{1, 2}, {3, 4.5}, {-1000, 0}})) || !tensor.Identical(d.Y, tensor.Matrix([][]float64{{0}, {1}, {1}})) {
		t.Errorf("read %v %v", d.X, d.Y)
	}
	d, err = train.ReadCSV(strings.NewReader("1,2,3,4\n5,6,7,8\n"), 2)
	if err != nil || d.X.Shape[1] != 2 || d.Y.Shape[1] != 2 || d.Y.Data[3] != 8 {
		t.Errorf("two targets: %v %v", d, err)
	}
	bad := []struct{ in, want string }{
		{"1,2,3\n4,5\n", "line 2: 2 columns, but line 1 has 3"},
		{"a,b\n1,2\n3,x\n", `line 3, column 3 (field 2): "x" is not a finite number`},
		{"1,2\n3,NaN\n", `line 2, column 3 (field 2): "NaN" is not a finite number`},
		{"1,2\n1e999,2\n", `line 2, column 1 (field 1): "1e999" is not a finite number`},
		{"1\n2\n", "line 1: 1 columns; need at least one input column and 1 target column(s)"},
		{"a,b\n", "no data rows"},
		{"", "no data rows"},
		{"1,2\"x\n", `line 1, column 4: bare " in non-quoted-field`},
	}
	for _, tc := range bad {
		if _, err := train.ReadCSV(strings.NewReader(tc.in), 1); err == nil || err.Error() != tc.want {
			t.Errorf("ReadCSV(%q): err = %v, want %s", tc.in, err, tc.want)
		}
	}
}

func TestReadJSON(t *testing.T) {
	d, err := train.ReadJSON(strings.NewReader(`{"x": [[1, 2], [3, 4]], "y": [1, 0]}`))
	if err != nil || !tensor.Identical(d.Y, tensor.Matrix([][]float64{{1}, {0}})) || d.X.At(1, 0) != 3 {
		t.Fatalf("%v %v", d, err)
	}
	d, err = train.ReadJSON(strings.NewReader(`{"x": [[1], [3]], "y": [[1, 2], [0, 5]]}`))
	if err != nil || d.Y.Shape[1] != 2 {
		t.Fatalf("%v %v", d, err)
	}
	bad := []struct{ in, want string }{
		{`{"x": [[1, 2], [3]], "y": [1, 0]}`, "x[1]: 1 numbers, x[0] has 2"},
		{`{"x": [[1, 2]], "y": [1, 0]}`, "y: 2 entries for 1 examples in x"},
		{`{"x": [], "y": []}`, "x: missing or empty (want a list of examples)"},
		{`{"x": [[1, "a"]], "y": [1]}`, `x[0]: want a list of numbers or a number, got [1, "a"]`},
		{`{"x": [[1]], "y": [1], "z": 2}`, `data: json: unknown field "z"`},
		{`{"x": [[1]], "y": [[]]}`, "y[0]: empty"},
		{`{"x": [[1]], "y": [null]}`, "y[0]: null is not a number"},
		{`{"x": [[1, 1e999]], "y": [1]}`, "x[0]: want a list of numbers or a number, got [1, 1e999]"},
		{`{"x": 3, "y": [1]}`, "x: want a list of examples, got 3"},
		{`{"x": [[1]], "y": [1], "x": [[2]]}`, "data: x: duplicate key"},
		{`{"x": [[1]]`, "data: unexpected EOF"},
		{`[1]`, `data: want an object {"x": [...], "y": [...]}`},
	}
	for _, tc := range bad {
		if _, err := train.ReadJSON(strings.NewReader(tc.in)); err == nil || err.Error() != tc.want {
			t.Errorf("ReadJSON(%s): err = %v, want %s", tc.in, err, tc.want)
		}
	}
}
