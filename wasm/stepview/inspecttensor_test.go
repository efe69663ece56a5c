//go:build js && wasm

package stepview

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestKeptTensorViews follows the inspector's kept views of one place
// through a sequence of shapes shown: a shape shown before is taken back
// (and becomes the latest), a new one goes in front, and the least
// recently shown go beyond tensorViewsKept views or tensorCellsKept cells.
func TestKeptTensorViews(t *testing.T) {
	view := func(shape string, cells int) *keptGrid { return &keptGrid{shape: shape, cells: cells} }
	shapes := func(views []*keptGrid) []string {
		var out []string
		for _, v := range views {
			out = append(out, v.shape)
		}
		return out
	}
	for _, tt := range []struct {
		name  string
		shown []string // "shape:cells"
		want  []string // the kept views' shapes, latest first
		made  int      // views made (not taken back)
	}{
		{"back and forth between two shapes", []string{"a:4", "b:12", "a:4", "b:12", "a:4"}, []string{"a", "b"}, 2},
		{"the least recent beyond six", []string{"a:1", "b:1", "c:1", "d:1", "e:1", "f:1", "g:1"}, []string{"g", "f", "e", "d", "c", "b"}, 7},
		{"taken back, then the newest", []string{"a:1", "b:1", "a:1", "c:1"}, []string{"c", "a", "b"}, 3},
		{"grids beyond the cells kept", []string{"g1:2304", "g2:2304", "g3:2304", "t:16"}, []string{"t", "g3", "g2"}, 4},
		{"a grid on screen is kept whatever its size", []string{"t:16", "big:9000"}, []string{"big", "t"}, 2},
	} {
		var kept []*keptGrid
		made := 0
		for _, s := range tt.shown {
			shape, cells, _ := strings.Cut(s, ":")
			n, _ := strconv.Atoi(cells)
			if takeView(kept, shape) != nil {
				continue
			}
			made++
			kept = keepViews(view(shape, n), kept)
		}
		if got := shapes(kept); !slices.Equal(got, tt.want) || made != tt.made {
			t.Errorf("%s: kept %v after making %d, want %v after %d", tt.name, got, made, tt.want, tt.made)
		}
	}
}
