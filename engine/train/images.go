package train

import (
	"math/rand/v2"
	"slices"
	"strconv"

	"tapelab/engine/tensor"
)

// ImageSide is the side of the image datasets' pictures: 8×8 pixels, one
// channel, each value in [0, 1] (0 is the background).
const ImageSide = 8

// imageNames are the image datasets: digits is read from its data file
// (DigitsFile), shapes is generated.
var imageNames = []string{"digits", "shapes"}

// ImageDatasetNames lists the image datasets (examples of ExampleShape
// [1 8 8]): "digits", the UCI handwritten digits read from DigitsFile (see
// ReadDigits and GenerateFrom), and "shapes", generated from the seed.
func ImageDatasetNames() []string { return append([]string(nil), imageNames...) }

// ExampleShape returns the shape one example of the named dataset has as a
// model input: [1 8 8] (one channel, 8×8 pixels) for the image datasets,
// [features] for the others, nil for an unknown name. A model may also take
// the same number of values in another shape ([64] for an image).
func ExampleShape(name string) tensor.Shape {
	g, ok := generators[name]
	switch {
	case !ok:
		return nil
	case slices.Contains(imageNames, name):
		return tensor.Shape{1, ImageSide, ImageSide}
	}
	return tensor.Shape{g.features}
}

// ClassNames returns the names of the named dataset's classes in index
// order ("0" … "9" for digits, the shape names for shapes, "0" and "1"
// for the 2-D classification sets), or nil for a regression set or an
// unknown name.
func ClassNames(name string) []string {
	if name == "shapes" {
		return append([]string(nil), shapeNames[:]...)
	}
	g := generators[name]
	if g.classes == 0 {
		return nil
	}
	names := make([]string, g.classes)
	for i := range names {
		names[i] = strconv.Itoa(i)
	}
	return names
}

// DataFile returns the data file the named dataset is read from, as a
// slash-separated path inside the playground's static folder (the page
// fetches it from there, the command line has it built in), or "" for a
// generated dataset.
func DataFile(name string) string {
	if name == "digits" {
		return DigitsFile
	}
	return ""
}

// pixelNoise moves each pixel by a uniform amount in [−noise, noise] and
// clamps it to [0, 1].
func pixelNoise(x []float64, noise float64, r *rand.Rand) {
	if noise == 0 {
		return
	}
	for i, v := range x {
		x[i] = min(1, max(0, v+uniform(r, -noise, noise)))
	}
}
