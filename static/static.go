// Package static gives the programs that run outside the browser (the
// command line) the playground's data files, static/data, built in. The
// page fetches the same files over HTTP when a dataset needs them, so the
// playground's wasm does not link them and must not import this package.
package static

import (
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"io"

	"tapelab/engine/train"
)

//go:embed data
var files embed.FS

// File returns the built-in copy of a file of the static folder's data/
// folder, by its path inside static/ (train.DataFile's form:
// "data/digits.csv.gz").
func File(name string) ([]byte, error) {
	return files.ReadFile(name)
}

// Load returns the configured dataset's training and test sets:
// train.Generate's for a generated dataset, train.GenerateFrom's on the
// built-in data file for one read from a file (digits).
func Load(c train.DataConfig) (trainSet, testSet *train.Dataset, err error) {
	name := train.DataFile(c.Name)
	if name == "" {
		return train.Generate(c)
	}
	if err := c.Check(); err != nil {
		return nil, nil, err
	}
	d, err := Digits()
	if err != nil {
		return nil, nil, err
	}
	return train.GenerateFrom(c, d)
}

// Digits reads the built-in digits file (train.DigitsFile) as the page
// does after fetching and decompressing it; errors name the file.
func Digits() (*train.Dataset, error) {
	name := train.DigitsFile
	gz, err := File(name)
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	d, err := train.ReadDigits(io.LimitReader(zr, 1<<24))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return d, nil
}
