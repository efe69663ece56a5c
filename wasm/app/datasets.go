package app

import (
	"fmt"

	"tapelab/engine/train"
)

// DataShape reports how many input features the generated dataset name
// has and how many classes its targets take (0 for a regression set), as
// engine/train generates it.
func DataShape(name string) (features, classes int, err error) {
	c := train.DefaultData(name)
	c.N = 2
	tr, _, err := train.Generate(c)
	if err != nil {
		return 0, 0, fmt.Errorf("dataset %q: %w", name, err)
	}
	return tr.X.Shape[1], tr.Classes, nil
}
