//go:build !wasm

package tensor

// tanhVJPLoop sets d[i] = g[i]·(1 − y[i]²), len(d) = len(g) = len(y).
func tanhVJPLoop(d, g, y []float64) {
	y = y[:len(g)]
	d = d[:len(g)]
	for i, v := range g {
		t := y[i]
		d[i] = v * (1 - t*t)
	}
}

// sumRowsLoop sets s to the row-order sum of the rows rows of x, each
// len(s) long (rows ≥ 1).
func sumRowsLoop(s, x []float64, rows int) {
	copy(s, x[:len(s)])
	for r := 1; r < rows; r++ {
		row := x[r*len(s):][:len(s)] // as long as s: no bounds checks in the loop
		for j, v := range row {
			s[j] += v
		}
	}
}
