//go:build !amd64 && !wasm

package tensor

// vecKernels reports that there are no vector kernels here.
const vecKernels = false

// vecTiles reports false: there is no vector kernel on this platform, and
// the register-tiled Go kernels compute every block.
func (g *gemm) vecTiles(i0, i1, j, w int) bool { return false }

// vecRow reports false: there is no vector kernel on this platform.
func (g *gemm) vecRow(i int) bool { return false }
