package nntest_test

import (
	"encoding/json"
	"fmt"

	"tapelab/engine/nn/nntest"
)

func ExampleFlat() {
	var v any
	if err := json.Unmarshal([]byte(`[[1, 2], [3], 4]`), &v); err != nil {
		panic(err)
	}
	fmt.Println(nntest.Flat(v), nntest.Flat(2.5), nntest.Flat("x"))
	// Output: [1 2 3 4] [2.5] []
}
