package firstview

import (
	"strconv"
	"strings"

	"tapelab/wasm/app"
	"tapelab/wasm/layout"
	"tapelab/wasm/tapesvg"
)

// MaxBytes is the most bytes a first view takes. A larger tape (about
// 2,000 nodes with their edges, or a few thousand without) is not drawn
// on the server: its page shows the loading screen until the wasm draws
// the tape, as a lesson's does.
const MaxBytes = 3 << 19 // 1.5 MiB

// minNodeBytes is less than the markup of any node's box takes (its group,
// its two rects and its two texts), so that a tape of more than
// MaxBytes/minNodeBytes nodes is known to be too large to draw before it
// is laid out.
const minNodeBytes = 200

// foldEdgeBytes is the most bytes the edges of the folds take, all folds
// together: a fold's edges are written whole while they fit, the later
// folds' boxes alone once they do not (the edges of a large tape would be
// written again for each fold).
const foldEdgeBytes = 256 << 10

// narrowest is the narrowest tape region the page is made for, in CSS px:
// a tape that fits it in one row at a readable scale is never folded.
const narrowest = 360 - 2*tapesvg.FitPad

// writeFolds appends, for a tape the page may fold into rows to fill a
// tall region (layout.Wrap), each fold: a hidden <g class="fold"
// data-rows="r" data-w="…" data-h="…" data-at="x y x y …"> with the boxes'
// places in data-at and the edges in it, and sets nothing for a tape too
// short to fold. firstview.js picks the fold as the tape view does
// (layout.PickRows). The fold of one row is the drawing itself: it has
// only its size, and firstview.js keeps the drawing's places and edges to
// go back to it. A fold with no edges in it (beyond foldEdgeBytes) shows
// its boxes alone until the page draws the tape.
func writeFolds(b *strings.Builder, lay *layout.Layout) {
	sizes := lay.RowSizes()
	if len(sizes) < 2 || lay.Width*app.ReadableScale <= narrowest {
		return
	}
	left := foldEdgeBytes
	var edges strings.Builder
	for r, size := range sizes {
		b.WriteString(`<g class="fold" display="none" data-rows="` + strconv.Itoa(r+1) + `" data-w="` + strconv.FormatFloat(size[0], 'g', -1, 64) +
			`" data-h="` + strconv.FormatFloat(size[1], 'g', -1, 64) + `"`)
		if r == 0 {
			b.WriteString(`></g>`)
			continue
		}
		f := lay.Wrap(r + 1)
		b.WriteString(` data-at="`)
		for i, box := range f.Boxes {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(tapesvg.F1(box.X) + " " + tapesvg.F1(box.Y))
		}
		b.WriteString(`">`)
		edges.Reset()
		for _, e := range f.Edges {
			if edges.Len() > left {
				break
			}
			edges.WriteString(`<path class="edge" d="` + e.Path() + `" marker-end="url(#arrow)"></path>`)
		}
		if edges.Len() <= left {
			b.WriteString(edges.String())
			left -= edges.Len()
		}
		b.WriteString(`</g>`)
	}
}
