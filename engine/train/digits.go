package train

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
)

// The digits dataset: the test set of the UCI optical recognition of
// handwritten digits data (E. Alpaydin, C. Kaynak, 1998; CC BY 4.0), as
// scikit-learn ships it in digits.csv.gz. Each line is one 8×8 image, 64
// grey levels from 0 to 16 in row-major order, then its digit.
const (
	// DigitsFile is the gzip-compressed CSV, under the static folder.
	DigitsFile = "data/digits.csv.gz"
	// DigitsImages is the number of images (lines) in the file.
	DigitsImages = 1797
	// DigitsLevels is the highest grey level; GenerateFrom divides by it.
	DigitsLevels = 16
)

// digitsFields is the number of fields on a line: 64 pixels and the label.
const digitsFields = ImageSide*ImageSide + 1

// ReadDigits reads the digits CSV (DigitsFile once decompressed) as
// ReadCSV reads it with one target column: exactly DigitsImages lines of 64
// whole grey levels from 0 to DigitsLevels and a digit from 0 to 9. It
// returns X [1797 64] holding the grey levels as read, Y [1797 1] the
// digits, and Classes 10. Errors name the line (and the column or pixel)
// at fault, or say that the file ends early.
func ReadDigits(r io.Reader) (*Dataset, error) {
	d, err := ReadCSV(r, 1)
	if err != nil {
		return nil, errors.New("digits: " + err.Error())
	}
	if w := d.X.Shape[1] + 1; w != digitsFields {
		return nil, fmt.Errorf("digits: %d fields, want %d (64 pixels and the digit)", w, digitsFields)
	}
	for i, v := range d.X.Data {
		if v != float64(int(v)) || v < 0 || v > DigitsLevels {
			return nil, fmt.Errorf("digits: line %d (pixel %d): %v is not a whole number from 0 to %d", i/64+1, i%64, v, DigitsLevels)
		}
	}
	for i, v := range d.Y.Data {
		if v != float64(int(v)) || v < 0 || v > 9 {
			return nil, fmt.Errorf("digits: line %d (the digit): %v is not a whole number from 0 to 9", i+1, v)
		}
	}
	if n := d.Len(); n != DigitsImages {
		return nil, fmt.Errorf("digits: %d images, want %d", n, DigitsImages)
	}
	d.Classes = 10
	return d, nil
}

// GenerateFrom is Generate for a dataset read from a data file (see
// DataFile): file is that file's content as its reader returns it
// (ReadDigits for digits), which is not modified. The pixels are scaled to
// [0, 1]; the images are shuffled with the seed, the first N kept, each
// pixel moved by a uniform amount in [−Noise, Noise] (clamped to [0, 1]),
// and the result split as Generate splits. The same configuration and file
// always give the same sets.
func GenerateFrom(c DataConfig, file *Dataset) (trainSet, testSet *Dataset, err error) {
	if err := c.Check(); err != nil {
		return nil, nil, err
	}
	if c.Name != "digits" {
		return nil, nil, fmt.Errorf("%s is generated, not read from a file: use Generate", c.Name)
	}
	if file == nil || file.X == nil || file.Y == nil || len(file.X.Shape) != 2 || len(file.Y.Shape) != 2 ||
		file.X.Shape[0] != DigitsImages || file.Y.Shape[0] != DigitsImages || file.X.Shape[1] != digitsFields-1 || file.Y.Shape[1] != 1 {
		return nil, nil, errors.New("digits: the file's examples are not the 1797 images ReadDigits returns")
	}
	all := &Dataset{X: file.X.Clone(), Y: file.Y.Clone(), Classes: 10}
	for i := range all.X.Data {
		all.X.Data[i] /= DigitsLevels
	}
	all.shuffle(rand.New(rand.NewPCG(c.Seed, 2)))
	all, _ = all.split(c.N)
	pixelNoise(all.X.Data, c.Noise, rand.New(rand.NewPCG(c.Seed, 1)))
	trainSet, testSet = all.split(max(1, int(float64(c.N)*c.TrainSplit)))
	return trainSet, testSet, nil
}
