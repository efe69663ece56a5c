package nntest

// Flat flattens a JSON value of nested arrays of numbers, as encoding/json
// decodes it into an any, to its numbers in row-major order: 2 gives [2],
// [[1, 2], [3]] gives [1 2 3]. Anything else (a string, null, an object)
// contributes nothing, so a golden file of the wrong form compares unequal.
func Flat(v any) []float64 {
	switch v := v.(type) {
	case float64:
		return []float64{v}
	case []any:
		var out []float64
		for _, e := range v {
			out = append(out, Flat(e)...)
		}
		return out
	}
	return nil
}
