package train

import (
	"math"
	"slices"
	"testing"

	"tapelab/engine/tensor"
)

// shapeRules says, for a noise-free image given as its inked pixels, why
// it is or is not a picture of each class.
var shapeRules = [len(shapeNames)]func(rows, cols []int, ink [8][8]bool) bool{
	// horizontal bar: one or two adjacent rows, each with the same run of 4+ pixels
	func(rows, cols []int, _ [8][8]bool) bool {
		return len(rows) <= 2 && spanOK(rows) && len(cols) >= 4 && spanOK(cols)
	},
	// vertical bar: the same, transposed
	func(rows, cols []int, _ [8][8]bool) bool {
		return len(cols) <= 2 && spanOK(cols) && len(rows) >= 4 && spanOK(rows)
	},
	// diagonal: 4+ rows, every inked pixel on one or two adjacent diagonals
	func(rows, _ []int, ink [8][8]bool) bool { return len(rows) >= 4 && diagonal(ink) },
	// cross: every inked pixel on a full row or a full column of the
	// bounding box, with at least one of each inside it
	func(rows, cols []int, ink [8][8]bool) bool {
		if len(rows) < 5 || len(cols) < 5 || !spanOK(rows) || !spanOK(cols) {
			return false
		}
		fullRow, fullCol := map[int]bool{}, map[int]bool{}
		for _, r := range rows {
			fullRow[r] = all(cols, func(c int) bool { return ink[r][c] })
		}
		for _, c := range cols {
			fullCol[c] = all(rows, func(r int) bool { return ink[r][c] })
		}
		for r := range 8 {
			for c := range 8 {
				if ink[r][c] && !fullRow[r] && !fullCol[c] {
					return false
				}
			}
		}
		inside := func(full map[int]bool, idx []int) bool {
			return slices.ContainsFunc(idx[1:len(idx)-1], func(i int) bool { return full[i] })
		}
		return inside(fullRow, rows) && inside(fullCol, cols)
	},
	// ring: 4+ rows and columns, not a diagonal, the middle of the bounding box empty
	func(rows, cols []int, ink [8][8]bool) bool {
		if len(rows) < 4 || len(cols) < 4 || diagonal(ink) {
			return false
		}
		r, c := (rows[0]+rows[len(rows)-1])/2, (cols[0]+cols[len(cols)-1])/2
		return !ink[r][c]
	},
}

// diagonal reports whether every inked pixel lies on one or two adjacent
// diagonals, either way.
func diagonal(ink [8][8]bool) bool {
	down, up := map[int]bool{}, map[int]bool{}
	for r := range 8 {
		for c := range 8 {
			if ink[r][c] {
				down[c-r], up[c+r] = true, true
			}
		}
	}
	return len(down) <= 2 || len(up) <= 2
}

// spanOK reports whether the sorted indices are consecutive.
func spanOK(idx []int) bool { return idx[len(idx)-1]-idx[0] == len(idx)-1 }

func all(idx []int, f func(int) bool) bool {
	for _, i := range idx {
		if !f(i) {
			return false
		}
	}
	return true
}

func TestShapes(t *testing.T) {
	c := DataConfig{Name: "shapes", N: 1000, TrainSplit: 1, Seed: 11}
	tr, te, err := Generate(c)
	if err != nil || te != nil {
		t.Fatal(err, te)
	}
	if !tr.X.Shape.Equal(tensor.Shape{1000, 64}) || tr.Classes != 5 {
		t.Fatalf("X %v, %d classes", tr.X.Shape, tr.Classes)
	}
	counts := make([]int, 5)
	for i := range tr.Len() {
		class := int(tr.Y.Data[i])
		counts[class]++
		var ink [8][8]bool
		var rows, cols []int
		for k, v := range tr.X.Data[i*64 : (i+1)*64] {
			if v != 0 && v != 1 {
				t.Fatalf("example %d: pixel %v without noise", i, v)
			}
			ink[k/8][k%8] = v == 1
		}
		for k := range 8 {
			if slices.Contains(ink[k][:], true) {
				rows = append(rows, k)
			}
			if slices.ContainsFunc(ink[:], func(row [8]bool) bool { return row[k] }) {
				cols = append(cols, k)
			}
		}
		if len(rows) == 0 {
			t.Fatalf("example %d (%s) is blank", i, shapeNames[class])
		}
		for k, rule := range shapeRules {
			if got := rule(rows, cols, ink); got != (k == class) {
				t.Errorf("example %d, a %s: the %s rule says %v\n%s", i, shapeNames[class], shapeNames[k], got, picture(ink))
			}
		}
	}
	if !slices.Equal(counts, []int{200, 200, 200, 200, 200}) {
		t.Errorf("class counts %v, want 200 each", counts)
	}

	again, _, _ := Generate(c)
	if !tensor.Identical(again.X, tr.X) || !tensor.Identical(again.Y, tr.Y) {
		t.Error("the same configuration gave different images")
	}
	c.Seed = 12
	if other, _, _ := Generate(c); tensor.Identical(other.X, tr.X) {
		t.Error("another seed gave the same images")
	}

	c = DataConfig{Name: "shapes", N: 12, TrainSplit: 0.5, Noise: 0.3}
	noisy, test, err := Generate(c)
	if err != nil || noisy.Len() != 6 || test.Len() != 6 {
		t.Fatalf("N 12, split 0.5: %v", err)
	}
	grey := 0
	for _, v := range noisy.X.Data {
		if v < 0 || v > 1 {
			t.Fatalf("pixel %v outside [0, 1]", v)
		}
		if v > 0.3 && v < 0.7 {
			t.Fatalf("pixel %v more than 0.3 from 0 and 1", v)
		}
		if v != 0 && v != 1 {
			grey++
		}
	}
	if grey < len(noisy.X.Data)/2 {
		t.Errorf("noise 0.3 changed %d of %d pixels", grey, len(noisy.X.Data))
	}
	if math.IsNaN(noisy.X.Data[0]) {
		t.Fatal("NaN")
	}
}

func picture(ink [8][8]bool) string {
	s := ""
	for _, row := range ink {
		for _, v := range row {
			if v {
				s += "#"
			} else {
				s += "."
			}
		}
		s += "\n"
	}
	return s
}

func TestImageDatasets(t *testing.T) {
	if got := ImageDatasetNames(); !slices.Equal(got, []string{"digits", "shapes"}) {
		t.Errorf("ImageDatasetNames() = %v", got)
	}
	for name, want := range map[string]tensor.Shape{"digits": {1, 8, 8}, "shapes": {1, 8, 8}, "circle": {2}, "sine": {1}, "nope": nil} {
		if got := ExampleShape(name); !got.Equal(want) || (got == nil) != (want == nil) {
			t.Errorf("ExampleShape(%s) = %v, want %v", name, got, want)
		}
	}
	for name, want := range map[string][]string{
		"digits": {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"},
		"shapes": {"horizontal bar", "vertical bar", "diagonal", "cross", "ring"},
		"xor":    {"0", "1"}, "sine": nil, "nope": nil,
	} {
		if got := ClassNames(name); !slices.Equal(got, want) {
			t.Errorf("ClassNames(%s) = %q, want %q", name, got, want)
		}
	}
	for name, want := range map[string]string{"digits": "data/digits.csv.gz", "shapes": "", "circle": ""} {
		if got := DataFile(name); got != want {
			t.Errorf("DataFile(%s) = %q, want %q", name, got, want)
		}
	}
	if err := (DataConfig{Name: "pics", N: 10, TrainSplit: 1}).Check(); err == nil ||
		err.Error() != `name: unknown dataset "pics" (want circle, xor, gauss, spiral, reg-plane, reg-gauss, moons, sine, digits, shapes)` {
		t.Errorf("unknown dataset: %v", err)
	}
	if d := DefaultData("digits"); d.N != DigitsImages {
		t.Errorf("digits defaults to %d examples", d.N)
	}
}
