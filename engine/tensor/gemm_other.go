//go:build !amd64

package tensor

// vecTile reports false: there is no vector kernel on this platform, and
// the register-tiled Go kernels compute every tile.
func (g *gemm) vecTile(i, j int) bool { return false }
