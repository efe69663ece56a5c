package layout

import (
	"strconv"
	"testing"
)

// deepMLP is mlpTape with about n nodes (5 per layer).
func deepMLP(n int) []Node { return mlpTape(max(1, n/5)) }

func BenchmarkComputeScale(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		for _, shape := range []struct {
			name  string
			nodes func(int) []Node
		}{{"mlp", deepMLP}, {"readEverywhere", readEverywhere}} {
			ns := shape.nodes(n)
			b.Run(shape.name+"-"+strconv.Itoa(n), func(b *testing.B) {
				for b.Loop() {
					if _, err := Compute(ns, Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
