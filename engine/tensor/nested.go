package tensor

import "strings"

// Nested writes data, the elements of a tensor of shape s in row-major
// order, as nested lists: "[[1, 2], [3, 4]]" for [2 2], "[]" for [0], the
// number alone for a scalar. num writes each number (Python's, JSON's or
// a program's form of it); ", " separates the items of a list.
func (s Shape) Nested(data []float64, num func(float64) string) string {
	var b strings.Builder
	s.nest(&b, data, num)
	return b.String()
}

func (s Shape) nest(b *strings.Builder, data []float64, num func(float64) string) {
	if len(s) == 0 {
		b.WriteString(num(data[0]))
		return
	}
	step := s[1:].Size()
	b.WriteByte('[')
	for i := range s[0] {
		if i > 0 {
			b.WriteString(", ")
		}
		s[1:].nest(b, data[i*step:(i+1)*step], num)
	}
	b.WriteByte(']')
}

// Index returns the position, one index per dimension, of the k-th
// element (row-major) of a tensor of shape s.
func (s Shape) Index(k int) []int {
	at := make([]int, len(s))
	for d := len(s) - 1; d >= 0; d-- {
		if s[d] > 0 {
			at[d] = k % s[d]
			k /= s[d]
		}
	}
	return at
}
