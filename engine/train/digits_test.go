package train

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"tapelab/engine/tensor"
)

// The checked-in digits.csv.gz: scikit-learn 1.2.1's copy (Debian's
// python3-sklearn 1.2.1+dfsg-1, sklearn/datasets/data/digits.csv.gz).
const (
	digitsGzipSize   = 57512
	digitsGzipSHA256 = "46abec6b12486ad9e51943373abcf22bbea1b5a51a1619b361570d8893f1464a"
	digitsCSVSize    = 264712
)

// readDigitsFile reads the repository's static/data/digits.csv.gz, checks
// its size and checksum, and returns its decompressed text.
func readDigitsFile(t *testing.T) []byte {
	t.Helper()
	gz, err := os.ReadFile(path.Join("..", "..", "static", DigitsFile))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(gz)
	if len(gz) != digitsGzipSize || hex.EncodeToString(sum[:]) != digitsGzipSHA256 {
		t.Fatalf("%s: %d bytes, sha256 %x; want %d bytes, sha256 %s", DigitsFile, len(gz), sum, digitsGzipSize, digitsGzipSHA256)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	var csv bytes.Buffer
	if _, err := csv.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	if csv.Len() != digitsCSVSize {
		t.Fatalf("decompressed: %d bytes, want %d", csv.Len(), digitsCSVSize)
	}
	return csv.Bytes()
}

func readDigits(t *testing.T) *Dataset {
	t.Helper()
	d, err := ReadDigits(bytes.NewReader(readDigitsFile(t)))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestReadDigits(t *testing.T) {
	d := readDigits(t)
	if !d.X.Shape.Equal(tensor.Shape{1797, 64}) || !d.Y.Shape.Equal(tensor.Shape{1797, 1}) || d.Classes != 10 {
		t.Fatalf("X %v, Y %v, %d classes", d.X.Shape, d.Y.Shape, d.Classes)
	}
	// Image 0 is a 0 (the file's first line).
	zero := []float64{
		0, 0, 5, 13, 9, 1, 0, 0,
		0, 0, 13, 15, 10, 15, 5, 0,
		0, 3, 15, 2, 0, 11, 8, 0,
		0, 4, 12, 0, 0, 8, 8, 0,
		0, 5, 8, 0, 0, 9, 8, 0,
		0, 4, 11, 0, 1, 12, 7, 0,
		0, 2, 14, 5, 10, 12, 0, 0,
		0, 0, 6, 13, 10, 0, 0, 0,
	}
	if got := d.X.Data[:64]; !slices.Equal(got, zero) || d.Y.Data[0] != 0 {
		t.Errorf("image 0 = %v (digit %v), want %v (digit 0)", got, d.Y.Data[0], zero)
	}
	if got := d.Y.Data[:10]; !slices.Equal(got, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Errorf("the first ten digits are %v, want 0 to 9", got)
	}
	counts := make([]int, 10)
	for _, y := range d.Y.Data {
		counts[int(y)]++
	}
	if want := []int{178, 182, 177, 183, 181, 182, 181, 179, 174, 180}; !slices.Equal(counts, want) {
		t.Errorf("class counts %v, want %v", counts, want)
	}
	for i, v := range d.X.Data {
		if v < 0 || v > 16 || v != math.Trunc(v) {
			t.Fatalf("pixel %d of image %d is %v", i%64, i/64, v)
		}
	}
}

func TestReadDigitsErrors(t *testing.T) {
	line := "0" + strings.Repeat(",0", 63) + ",7\n"
	many := strings.Repeat(line, DigitsImages)
	tests := []struct{ in, want string }{
		{"", "digits: no data rows"},
		{line + line, "digits: 2 images, want 1797"},
		{many + line, "digits: 1798 images, want 1797"},
		{line + "1,2,3\n", "digits: line 2: 3 columns, but line 1 has 65"},
		{"1,2,3\n", "digits: 3 fields, want 65 (64 pixels and the digit)"},
		{"17" + line[1:], `digits: line 1 (pixel 0): 17 is not a whole number from 0 to 16`},
		{line + "0,x" + line[3:], `digits: line 2, column 3 (field 2): "x" is not a finite number`},
		{"0,1.5" + line[3:], `digits: line 1 (pixel 1): 1.5 is not a whole number from 0 to 16`},
		{line + "0,-1" + line[3:], `digits: line 2 (pixel 1): -1 is not a whole number from 0 to 16`},
		{line[:len(line)-2] + "10\n", `digits: line 1 (the digit): 10 is not a whole number from 0 to 9`},
		{line + "0,\"0\n", "digits: line 2, column 6: extraneous or missing \" in quoted-field"},
	}
	for _, tc := range tests {
		if _, err := ReadDigits(strings.NewReader(tc.in)); err == nil || err.Error() != tc.want {
			name := tc.in
			if len(name) > 40 {
				name = name[:40] + "…"
			}
			t.Errorf("ReadDigits(%q): err = %v, want %s", name, err, tc.want)
		}
	}
	if d, err := ReadDigits(strings.NewReader(many)); err != nil || d.Len() != DigitsImages || d.Y.Data[5] != 7 {
		t.Errorf("1797 blank sevens: %v", err)
	}
}

func TestGenerateFromDigits(t *testing.T) {
	file := readDigits(t)
	orig := file.X.Clone()
	c := DefaultData("digits")
	tr, te, err := GenerateFrom(c, file)
	if err != nil {
		t.Fatal(err)
	}
	if !tensor.Identical(file.X, orig) {
		t.Fatal("GenerateFrom changed the file's images")
	}
	if tr.Len() != 898 || te.Len() != 899 || tr.Classes != 10 || !tr.X.Shape.Equal(tensor.Shape{898, 64}) {
		t.Fatalf("default split: %d train %v, %d test", tr.Len(), tr.X.Shape, te.Len())
	}
	// Without noise the two sets are the file's images scaled to [0, 1], each once.
	seen := map[string]int{}
	for i := range DigitsImages {
		seen[fmt.Sprint(file.X.Data[i*64:(i+1)*64], file.Y.Data[i])]++
	}
	for _, set := range []*Dataset{tr, te} {
		for i := range set.Len() {
			img := slices.Clone(set.X.Data[i*64 : (i+1)*64])
			for k, v := range img {
				img[k] = v * DigitsLevels
			}
			key := fmt.Sprint(img, set.Y.Data[i])
			if seen[key] == 0 {
				t.Fatalf("example %d is not one of the file's images (or appears twice)", i)
			}
			seen[key]--
		}
	}
	again, _, _ := GenerateFrom(c, file)
	if !tensor.Identical(again.X, tr.X) || !tensor.Identical(again.Y, tr.Y) {
		t.Error("the same configuration gave different sets")
	}
	c.Seed = 3
	if other, _, _ := GenerateFrom(c, file); tensor.Identical(other.Y, tr.Y) {
		t.Error("another seed gave the same order")
	}

	// Size and noise: N images, each pixel within noise of the clean one.
	c = DataConfig{Name: "digits", N: 100, TrainSplit: 0.8, Seed: 5}
	clean, cleanTest, _ := GenerateFrom(c, file)
	c.Noise = 0.25
	noisy, noisyTest, err := GenerateFrom(c, file)
	if err != nil || noisy.Len() != 80 || noisyTest.Len() != 20 || cleanTest.Len() != 20 {
		t.Fatalf("N 100, split 0.8: %v", err)
	}
	if !tensor.Identical(noisy.Y, clean.Y) {
		t.Error("noise changed the labels or the order")
	}
	moved := 0
	for i, v := range noisy.X.Data {
		d := v - clean.X.Data[i]
		if v < 0 || v > 1 || math.Abs(d) > 0.25 {
			t.Fatalf("pixel %d: %v from %v with noise 0.25", i, v, clean.X.Data[i])
		}
		if d != 0 {
			moved++
		}
	}
	if moved < len(noisy.X.Data)/2 {
		t.Errorf("noise 0.25 moved %d of %d pixels", moved, len(noisy.X.Data))
	}

	bad := []struct {
		c    DataConfig
		file *Dataset
		want string
	}{
		{DataConfig{Name: "digits", N: 1798, TrainSplit: 0.5}, file, "n: must be a whole number from 2 to 1797"},
		{DefaultData("circle"), file, "circle is generated, not read from a file: use Generate"},
		{DefaultData("digits"), nil, "digits: the file's examples are not the 1797 images ReadDigits returns"},
		{DefaultData("digits"), tr, "digits: the file's examples are not the 1797 images ReadDigits returns"},
	}
	for _, tc := range bad {
		if _, _, err := GenerateFrom(tc.c, tc.file); err == nil || err.Error() != tc.want {
			t.Errorf("GenerateFrom(%+v): err = %v, want %s", tc.c, err, tc.want)
		}
	}
	if _, _, err := Generate(DefaultData("digits")); err == nil || !strings.Contains(err.Error(), "data/digits.csv.gz") {
		t.Errorf("Generate(digits): err = %v, want one naming the data file", err)
	}
}
