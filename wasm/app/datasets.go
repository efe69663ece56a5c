package app

import (
	"errors"
	"strconv"

	"tapelab/engine/tensor"
	"tapelab/engine/train"
)

// DataShape reports the shape of one example of the dataset name as a
// model input ([2] for the 2-D sets, [1 8 8] for the images) and how many
// classes its targets take (0 for a regression set), as engine/train
// describes it.
func DataShape(name string) (shape tensor.Shape, classes int, err error) {
	shape = train.ExampleShape(name)
	if shape == nil {
		return nil, 0, errors.New("unknown dataset " + strconv.Quote(name))
	}
	return shape, len(train.ClassNames(name)), nil
}

// ImageData reports whether the dataset name is a set of images.
func ImageData(name string) bool { return len(train.ExampleShape(name)) == 3 }
