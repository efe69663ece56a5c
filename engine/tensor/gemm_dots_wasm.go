package tensor

// In wasm the assembly kernel (gemm_wasm.s) takes every block and strip of
// a product with k ≥ 1 (vecTiles, vecRow); what run leaves to tiles, cols
// and rows there is a product with k = 0, which they compute element by
// element (each element finished from s = +0, as store finishes it).

// tiles computes the tileRows×tileCols blocks of c at rows i0, i0+tileRows,
// …, i1-tileRows and columns j…j+tileCols-1, element by element.
func (g *gemm) tiles(i0, i1, j int) { g.dots(i0, i1, j, j+tileCols) }

// cols computes the tileRows×1 strips of c at rows i0…i1-1 and column j,
// element by element.
func (g *gemm) cols(i0, i1, j int) { g.dots(i0, i1, j, j+1) }

// rows computes row i0 of c at columns j…j1-1, element by element.
func (g *gemm) rows(i0, j, j1 int) { g.dots(i0, i0+1, j, j1) }
