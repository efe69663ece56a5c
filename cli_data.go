package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"

	"tapelab/engine/nn"
	"tapelab/engine/tensor"
)

// loadData reads a data file {"x": [[...], ...], "y": [...]} for model m:
// x holds one flattened example of m's input shape per row; y holds, per
// example, a flattened target row for mse and bce_with_logits or an integer
// class index for cross_entropy. Errors name the file and the JSON path.
func loadData(path string, m *nn.Model) (x, y *tensor.Tensor, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	x, y, err = decodeData(data, m)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return x, y, nil
}

func decodeData(data []byte, m *nn.Model) (x, y *tensor.Tensor, err error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, nil, fmt.Errorf("invalid JSON: %v", err)
	}
	if dec.More() {
		return nil, nil, fmt.Errorf("unexpected data after the JSON object")
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, nil, fmt.Errorf("want an object {\"x\": [...], \"y\": [...]}, got %s", jsonKind(doc))
	}
	for k := range obj {
		if k != "x" && k != "y" {
			return nil, nil, fmt.Errorf("%s: unknown field (a data file holds only x and y)", k)
		}
	}
	in := m.Seq.Input()
	xs, err := dataRows(obj["x"], "x", in.Size(), fmt.Sprintf("one example of shape %v, flattened", in))
	if err != nil {
		return nil, nil, err
	}
	n := len(xs) / in.Size()
	x, _ = tensor.New(append(tensor.Shape{n}, in...), xs)
	out := m.Seq.Output()
	if m.Loss == nn.CrossEntropy {
		y, err = dataClasses(obj["y"], n, out[0])
		return x, y, err
	}
	tgt := m.Loss.Target(out)
	ys, err := dataRows(obj["y"], "y", tgt.Size(), fmt.Sprintf("one %s target of shape %v, flattened", m.Loss, tgt))
	if err != nil {
		return nil, nil, err
	}
	if got := len(ys) / tgt.Size(); got != n {
		return nil, nil, fmt.Errorf("y: has %d rows, x has %d", got, n)
	}
	y, _ = tensor.New(append(tensor.Shape{n}, tgt...), ys)
	return x, y, nil
}

// dataRows decodes a non-empty array of rows of width numbers each.
func dataRows(v any, path string, width int, what string) ([]float64, error) {
	if v == nil {
		return nil, fmt.Errorf("%s: missing (want an array of rows, each %s)", path, what)
	}
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return nil, fmt.Errorf("%s: want a non-empty array of rows, each %s", path, what)
	}
	out := make([]float64, 0, len(list)*width)
	for i, r := range list {
		row, ok := r.([]any)
		if !ok {
			return nil, fmt.Errorf("%s[%d]: want a row of %d numbers (%s), got %s", path, i, width, what, jsonKind(r))
		}
		if len(row) != width {
			return nil, fmt.Errorf("%s[%d]: has %d numbers, want %d (%s)", path, i, len(row), width, what)
		}
		for j, e := range row {
			f, err := dataNumber(e, fmt.Sprintf("%s[%d][%d]", path, i, j))
			if err != nil {
				return nil, err
			}
			out = append(out, f)
		}
	}
	return out, nil
}

// dataClasses decodes n class indices, whole numbers in [0, c).
func dataClasses(v any, n, c int) (*tensor.Tensor, error) {
	list, ok := v.([]any)
	if !ok {
		if v == nil {
			return nil, fmt.Errorf("y: missing (want one class index per row of x)")
		}
		return nil, fmt.Errorf("y: want an array of class indices (cross_entropy), got %s", jsonKind(v))
	}
	if len(list) != n {
		return nil, fmt.Errorf("y: has %d class indices, x has %d rows", len(list), n)
	}
	y := tensor.Zeros(tensor.Shape{n})
	for i, e := range list {
		f, err := dataNumber(e, fmt.Sprintf("y[%d]", i))
		if err != nil {
			return nil, err
		}
		if f != math.Trunc(f) || f < 0 || f >= float64(c) {
			return nil, fmt.Errorf("y[%d]: class index %v is out of range (want a whole number from 0 to %d)", i, f, c-1)
		}
		y.Data[i] = f
	}
	return y, nil
}

// dataNumber converts a decoded JSON number to a finite float64.
func dataNumber(v any, path string) (float64, error) {
	s, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("%s: want a number, got %s", path, jsonKind(v))
	}
	f, err := strconv.ParseFloat(string(s), 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%s: %s is outside the float64 range", path, s)
	}
	return f, nil
}

// jsonKind names the JSON type of a decoded value.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	}
	return "an object"
}
