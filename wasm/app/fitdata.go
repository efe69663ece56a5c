package app

import (
	"strings"

	"tapelab/engine/train"
)

// FitData returns the model for the dataset c when the dataset is changed
// on model doc: doc taking c's examples as its input when it then builds
// and suits the data (switched false), else the dataset's default model
// (switched true): DefaultCNN for images, DefaultDoc for points. A page
// never stays on a model that cannot train on the data just chosen.
func FitData(doc Doc, c train.DataConfig) (fit Doc, switched bool, err error) {
	shape, classes, err := DataShape(c.Name)
	if err != nil {
		return doc, false, err
	}
	d := doc
	d.Input = shape.Clone()
	if seq, _, err := d.Check(); err == nil && c.Fits(seq.Input(), seq.Output(), d.Loss) == nil {
		return d, false, nil
	}
	if ImageData(c.Name) {
		return DefaultCNN(shape, classes), true, nil
	}
	d = DefaultDoc()
	d.Input = shape.Clone()
	return d, true, nil
}

// LayerPath names doc's layers in order, "conv2d → relu → …".
func LayerPath(doc Doc) string {
	names := make([]string, len(doc.Layers))
	for i, l := range doc.Layers {
		names[i] = l.Type()
	}
	return strings.Join(names, " → ")
}
