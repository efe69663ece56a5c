//go:build js && wasm

package ui

import (
	"math"
	"strconv"
)

// F1 formats a coordinate with one decimal.
func F1(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }
