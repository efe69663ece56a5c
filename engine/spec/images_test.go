package spec

import (
	"strings"
	"testing"

	"tapelab/engine/train"
)

// cnn is a model document with a small CNN of the given input shape and
// number of classes on the given dataset object.
func cnn(input, out, dataset string) string {
	return `{"version":1,"input":` + input + `,"layers":[{"type":"conv2d","out_channels":4,"kernel_size":3},{"type":"relu"},` +
		`{"type":"max_pool2d","kernel_size":2},{"type":"flatten"},{"type":"linear","out":` + out + `}],"loss":"cross_entropy","dataset":` + dataset + `}`
}

// TestImageDatasets checks that a model document names an image dataset,
// that its input must hold one image, and that its size is checked and
// encoded against the dataset's own default.
func TestImageDatasets(t *testing.T) {
	ok := []struct {
		doc  string
		want train.DataConfig
		enc  string
	}{
		{cnn("[1,8,8]", "10", `{"name":"digits"}`), train.DataConfig{Name: "digits", N: 1797, TrainSplit: 0.5}, `"dataset":{"name":"digits"}`},
		{cnn("[1,8,8]", "10", `{"name":"digits","n":300,"noise":0.1,"seed":4}`), train.DataConfig{Name: "digits", N: 300, Noise: 0.1, TrainSplit: 0.5, Seed: 4}, `"dataset":{"name":"digits","n":300,"noise":0.1,"seed":4}`},
		{cnn("[1,8,8]", "5", `{"name":"shapes","train_split":0.8}`), train.DataConfig{Name: "shapes", N: 500, TrainSplit: 0.8}, `"dataset":{"name":"shapes","train_split":0.8}`},
		{`{"version":1,"input":[64],"layers":[{"type":"linear","out":10}],"loss":"cross_entropy","dataset":{"name":"digits"}}`, train.DefaultData("digits"), `"dataset":{"name":"digits"}`},
	}
	for _, tc := range ok {
		m, err := Decode([]byte(tc.doc))
		if err != nil {
			t.Errorf("%s: %v", tc.doc, err)
			continue
		}
		if m.Dataset != tc.want {
			t.Errorf("%s: dataset %+v, want %+v", tc.doc, m.Dataset, tc.want)
		}
		enc, err := Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(enc), tc.enc) {
			t.Errorf("%s encodes as %s, without %s", tc.doc, enc, tc.enc)
		}
		back, err := Decode(enc)
		if err != nil || back.Dataset != m.Dataset {
			t.Errorf("%s: the encoding decodes to %+v (%v)", tc.doc, back, err)
		}
	}
	bad := []struct{ doc, want string }{
		{cnn("[1,8,8]", "10", `{"name":"digits","n":1798}`), "dataset.n: must be a whole number from 2 to 1797"},
		{cnn("[1,8,8]", "5", `{"name":"digits"}`), "dataset: the data has 10 classes, the model gives 5 logits"},
		{cnn("[1,6,6]", "10", `{"name":"shapes"}`), "dataset: examples have 64 features, the model input [1 6 6] needs 36"},
		{`{"version":1,"input":[2],"layers":[{"type":"linear","out":5}],"loss":"cross_entropy","dataset":{"name":"shapes"}}`, "dataset: examples have 64 features, the model input [2] needs 2"},
	}
	for _, tc := range bad {
		if _, err := Decode([]byte(tc.doc)); err == nil || err.Error() != tc.want {
			t.Errorf("%s: err = %v, want %s", tc.doc, err, tc.want)
		}
	}
}
