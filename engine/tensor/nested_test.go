package tensor

import (
	"slices"
	"strconv"
	"testing"
)

func TestNested(t *testing.T) {
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, tt := range []struct {
		shape Shape
		data  []float64
		want  string
	}{
		{Shape{}, []float64{-0.5}, "-0.5"},
		{Shape{0}, nil, "[]"},
		{Shape{3}, []float64{1, 2, 3}, "[1, 2, 3]"},
		{Shape{2, 2}, []float64{1, 2, 3, 4}, "[[1, 2], [3, 4]]"},
		{Shape{2, 0}, nil, "[[], []]"},
		{Shape{1, 2, 1}, []float64{7, 8}, "[[[7], [8]]]"},
	} {
		if got := tt.shape.Nested(tt.data, num); got != tt.want {
			t.Errorf("%v: Nested = %q, want %q", tt.shape, got, tt.want)
		}
	}
	quoted := Shape{2}.Nested([]float64{1, 2}, func(x float64) string { return "<" + num(x) + ">" })
	if quoted != "[<1>, <2>]" {
		t.Errorf("Nested with another number form = %q", quoted)
	}
}

func TestIndex(t *testing.T) {
	for _, tt := range []struct {
		shape Shape
		k     int
		want  []int
	}{
		{Shape{}, 0, []int{}},
		{Shape{5}, 3, []int{3}},
		{Shape{2, 3}, 4, []int{1, 1}},
		{Shape{2, 3, 4}, 23, []int{1, 2, 3}},
		{Shape{2, 3, 4}, 13, []int{1, 0, 1}},
	} {
		if got := tt.shape.Index(tt.k); !slices.Equal(got, tt.want) {
			t.Errorf("%v.Index(%d) = %v, want %v", tt.shape, tt.k, got, tt.want)
		}
	}
}
