//go:build js && wasm

package main

import (
	"strconv"
	"strings"

	"tapelab/engine/train"
	"tapelab/wasm/trainer"
)

// The test image grid: gridCols × gridRows images, each gridImage CSS
// pixels square in a cell gridCell wide and gridCell+gridText high.
const (
	gridCols, gridRows = 8, 4
	gridCell, gridText = 40.0, 14.0
	gridImage          = 32.0
)

// imagePanel is the training view's picture for image data: the first
// test images with the model's predictions (mistakes framed and labelled
// with the true class), the confusion matrix over the test set and the
// accuracy chart.
type imagePanel struct {
	u         *document
	root      elem
	grid      canvas
	key       elem // the class names, when they are not the class numbers
	confusion elem
	acc       *chart
	img       *pixels
	drawn     int     // the step last drawn, or -1
	at        float64 // when (performance.now)
}

func newImagePanel(u *document) *imagePanel {
	p := &imagePanel{u: u, drawn: -1, img: newPixels(u, train.ImageSide)}
	p.grid = newCanvas(u, gridCols*gridCell, gridRows*(gridCell+gridText), "id", "train-grid", "role", "img",
		"aria-label", "The first test images with the model's predictions; mistakes are framed in red, with the true class in brackets")
	p.key = u.txt("p", "", "class", "muted small", "id", "train-grid-key", "hidden", "")
	p.confusion = u.el("table", "id", "train-confusion", "class", "confusion mono")
	p.acc = newAccuracyChart(u, 300, 90)
	p.root = add(u.el("div", "class", "train-images", "id", "train-images"),
		u.txt("h3", "Test images and predictions"), p.grid.el, p.key,
		u.txt("h3", "Confusion matrix (test set)"), u.txt("p", "rows: true class · columns: predicted", "class", "muted small"), p.confusion)
	return p
}

// draw shows the session's predictions; while training runs it redraws at
// most every 300 ms, as a pass over the test set costs a few steps.
func (p *imagePanel) draw(s *trainer.Session, running bool) error {
	p.acc.draw(s.History())
	if s.Steps() == p.drawn || running && now()-p.at < 300 {
		return nil
	}
	pr, err := s.Classify()
	if err != nil {
		p.grid.clear(gridCols*gridCell, gridRows*(gridCell+gridText))
		p.confusion.clear()
		p.drawn = -1
		return err
	}
	p.drawn, p.at = s.Steps(), now()
	name := s.Spec().Dataset.Name
	names := train.ClassNames(name)
	p.key.SetTextContent("")
	if name != "digits" {
		var b strings.Builder
		for i, n := range names {
			if i > 0 {
				b.WriteString(" · ")
			}
			b.WriteString(strconv.Itoa(i) + " " + n)
		}
		p.key.SetTextContent(b.String())
	}
	p.key.show(name != "digits")
	_, te := s.Sets()
	p.drawGrid(te, pr)
	p.drawConfusion(pr)
	return nil
}

// drawGrid paints the first test images with their predicted classes.
func (p *imagePanel) drawGrid(te *train.Dataset, pr *trainer.Predictions) {
	pal := readPalette(p.u)
	bad := p.u.root().Style("--bad")
	c := p.grid
	w, h := gridCols*gridCell, gridRows*(gridCell+gridText)
	c.clear(w, h)
	c.background(pal.surface, w, h)
	px := train.ImageSide * train.ImageSide
	shown, wrong := 0, 0
	font := "11px system-ui, sans-serif"
	for i := 0; i < gridCols*gridRows && i < te.Len(); i++ {
		for j, v := range te.X.Data[i*px : (i+1)*px] {
			g := byte(255 - 255*min(1, max(0, v)))
			copy(p.img.RGBA[4*j:], []byte{g, g, g, 255})
		}
		p.img.put()
		x := float64(i%gridCols) * gridCell
		y := float64(i/gridCols) * (gridCell + gridText)
		ix, iy := x+(gridCell-gridImage)/2, y+2
		c.drawPixelsAt(p.img, ix, iy, gridImage)
		label, colour := strconv.Itoa(pr.Class[i]), pal.ink
		if pr.Class[i] != pr.Want[i] {
			wrong++
			label += " (" + strconv.Itoa(pr.Want[i]) + ")"
			colour = bad
			c.beginPath()
			c.rect(ix-1.5, iy-1.5, gridImage+3, gridImage+3)
			c.stroke(bad, 2*pal.stroke)
		} else {
			c.beginPath()
			c.rect(ix-0.5, iy-0.5, gridImage+1, gridImage+1)
			c.stroke(pal.frame, pal.stroke)
		}
		c.fillText(label, ix, iy+gridImage+12, colour, font)
		shown++
	}
	e := c.el
	e.SetAttribute("data-shown", strconv.Itoa(shown))
	e.SetAttribute("data-wrong", strconv.Itoa(wrong))
}

// drawConfusion fills the confusion matrix table; each cell is shaded by
// its share of its row (the diagonal blue, mistakes red).
func (p *imagePanel) drawConfusion(pr *trainer.Predictions) {
	u, t := p.u, p.confusion
	t.clear()
	head := u.el("tr")
	head.AppendChild(u.txt("th", "", "scope", "col"))
	for j := range pr.Confusion[0] {
		head.AppendChild(u.txt("th", strconv.Itoa(j), "scope", "col"))
	}
	t.AppendChild(head)
	right, total := 0, 0
	for i, row := range pr.Confusion {
		tr := u.el("tr")
		tr.AppendChild(u.txt("th", strconv.Itoa(i), "scope", "row"))
		sum := 0
		for _, k := range row {
			sum += k
		}
		for j, k := range row {
			td := u.txt("td", strconv.Itoa(k))
			if k > 0 {
				share := strconv.FormatFloat(0.1+0.45*float64(k)/float64(max(sum, 1)), 'f', 2, 64)
				rgb := "200, 40, 40"
				if i == j {
					rgb = "40, 110, 200"
				}
				td.SetStyle("background", "rgba("+rgb+", "+share+")")
			} else {
				td.AddClass("zero")
			}
			if i == j {
				right += k
			}
			total += k
			tr.AppendChild(td)
		}
		t.AppendChild(tr)
	}
	t.SetAttribute("data-right", strconv.Itoa(right))
	t.SetAttribute("data-total", strconv.Itoa(total))
}
