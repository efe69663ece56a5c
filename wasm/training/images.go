//go:build js && wasm

package training

import (
	"tapelab/wasm/app"

	"strconv"
	"strings"

	"tapelab/engine/train"
	"tapelab/wasm/dom"
	"tapelab/wasm/trainer"
	"tapelab/wasm/ui"
)

// The test image grid: gridW CSS pixels wide; each image gridImage pixels
// square in a cell gridImage+8 high with gridText below it for its label
// (two lines: the prediction and, for a mistake, the true class).
const (
	gridW, gridImage = 320.0, 32.0
	gridCellH        = gridImage + 4 + 2*gridText
	gridText         = 12.0
	// gridFont is both lines' font: a mistake's true class is as large as
	// the prediction (it was 9 px, too small to read projected).
	gridFont = "11px system-ui, sans-serif"
)

// gridLayout is how many test images a row shows, and how many rows:
// eight of four rows for classes named by their numbers, four of four
// for classes with words for names.
func gridLayout(names []string) (cols, rows int) {
	if app.Worded(names) {
		return 4, 4
	}
	return 8, 4
}

// imagePanel is the training view's picture for image data: the first
// test images with the model's predictions by class name (mistakes framed
// and labelled with the true class), the confusion matrix over the test
// set with the class names on its axes, and the accuracy chart.
type imagePanel struct {
	u         *dom.Document
	root      dom.Elem
	grid      dom.Canvas
	confusion dom.Elem
	acc       *ui.Chart
	img       *dom.Pixels
	drawn     int     // the step last drawn, or -1
	at        float64 // when (performance.now)
}

// newImagePanel returns the panel, blank.
func newImagePanel(u *dom.Document) *imagePanel {
	p := &imagePanel{u: u, drawn: -1, img: dom.NewPixels(u, train.ImageSide)}
	p.grid = dom.NewCanvas(u, gridW, 4*gridCellH, "id", "train-grid", "role", "img",
		"aria-label", "The first test images with the model's predictions; mistakes are framed in red, with the true class in brackets")
	p.confusion = u.El("table", "id", "train-confusion", "class", "confusion mono")
	p.acc = ui.NewAccuracyChart(u, 300, 90)
	p.root = dom.Add(u.El("div", "class", "train-images", "id", "train-images"),
		u.Txt("h3", "Test images and predictions"), p.grid.El,
		u.Txt("h3", "Confusion matrix (test set)"), u.Txt("p", "rows: true class · columns: predicted", "class", "muted small"), p.confusion)
	return p
}

// draw shows the session's predictions; while training runs it redraws at
// most every 300 ms, as a pass over the test set costs a few steps.
func (p *imagePanel) draw(s *trainer.Session, running bool) error {
	p.acc.Draw(s.History())
	if s.Steps() == p.drawn || running && dom.Now()-p.at < 300 {
		return nil
	}
	pr, err := s.Classify()
	p.grid.Clear(gridW, 4*gridCellH)
	p.confusion.Clear()
	p.drawn = -1
	if err != nil {
		return err
	}
	p.drawn, p.at = s.Steps(), dom.Now()
	names := train.ClassNames(s.Spec().Dataset.Name)
	_, te := s.Sets()
	p.drawGrid(te, pr, names)
	p.drawConfusion(pr, names)
	return nil
}

// blank clears the panel: the next draw paints the session it is given
// whatever its step (a new session starts at step 0 too).
func (p *imagePanel) blank() {
	p.acc.Draw(nil)
	p.grid.Clear(gridW, 4*gridCellH)
	p.confusion.Clear()
	p.drawn = -1
	for _, a := range []string{"data-shown", "data-wrong", "data-classes"} {
		p.grid.El.RemoveAttribute(a)
	}
}

// drawGrid paints the first test images with their predicted classes.
func (p *imagePanel) drawGrid(te *train.Dataset, pr *trainer.Predictions, names []string) {
	pal := ui.ReadPalette(p.u)
	bad := p.u.Root().Style("--bad")
	c := p.grid
	c.Background(pal.Surface, gridW, 4*gridCellH)
	c.TextAlign("center")
	cols, rows := gridLayout(names)
	cell := gridW / float64(cols)
	px := train.ImageSide * train.ImageSide
	shown, wrong := 0, 0
	var said []string
	for i := 0; i < cols*rows && i < te.Len(); i++ {
		for j, v := range te.X.Data[i*px : (i+1)*px] {
			g := byte(255 - 255*min(1, max(0, v)))
			copy(p.img.RGBA[4*j:], []byte{g, g, g, 255})
		}
		p.img.Put()
		ix, iy := float64(i%cols)*cell+(cell-gridImage)/2, float64(i/cols)*gridCellH+2
		c.DrawPixelsAt(p.img, ix, iy, gridImage)
		label, colour, frame, line := app.ClassName(names, pr.Class[i]), pal.Ink, pal.Frame, pal.Stroke
		said = append(said, label)
		c.BeginPath()
		if pr.Class[i] != pr.Want[i] {
			wrong++
			colour, frame, line = bad, bad, 2*pal.Stroke
			c.FillText("("+app.ClassName(names, pr.Want[i])+")", ix+gridImage/2, iy+gridImage+2*gridText, colour, gridFont)
		}
		c.Rect(ix-line/2, iy-line/2, gridImage+line, gridImage+line)
		c.Stroke(frame, line)
		c.FillText(label, ix+gridImage/2, iy+gridImage+gridText, colour, gridFont)
		shown++
	}
	e := c.El
	e.SetAttribute("data-shown", strconv.Itoa(shown))
	e.SetAttribute("data-wrong", strconv.Itoa(wrong))
	e.SetAttribute("data-classes", strings.Join(said, ","))
}

// drawConfusion fills the confusion matrix table, the class names on its
// axes; each cell is shaded by its share of its row (the diagonal blue,
// mistakes red).
func (p *imagePanel) drawConfusion(pr *trainer.Predictions, names []string) {
	u, t := p.u, p.confusion
	head := u.El("tr")
	head.AppendChild(u.El("td")) // the corner: no header of its own (an empty th says nothing to a screen reader)
	for j := range pr.Confusion[0] {
		head.AppendChild(u.Txt("th", app.ClassName(names, j), "scope", "col"))
	}
	t.AppendChild(head)
	right, total := 0, 0
	for i, row := range pr.Confusion {
		tr := u.El("tr")
		tr.AppendChild(u.Txt("th", app.ClassName(names, i), "scope", "row"))
		sum := 0
		for _, k := range row {
			sum += k
		}
		for j, k := range row {
			td := u.Txt("td", strconv.Itoa(k))
			rgb := "200, 40, 40, "
			if i == j {
				rgb = "40, 110, 200, "
				right += k
			}
			a := 0.0
			if k > 0 {
				a = 0.1 + 0.45*float64(k)/float64(max(sum, 1))
			}
			td.SetStyle("background", "rgba("+rgb+strconv.FormatFloat(a, 'f', 2, 64)+")")
			td.ToggleClass("zero", k == 0)
			total += k
			tr.AppendChild(td)
		}
		t.AppendChild(tr)
	}
	t.ToggleClass("named", app.Worded(names))
	t.SetAttribute("data-right", strconv.Itoa(right))
	t.SetAttribute("data-total", strconv.Itoa(total))
}
