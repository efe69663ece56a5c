//go:build js && wasm

package stepview

import (
	"tapelab/wasm/debounce"

	"tapelab/wasm/dom"

	"strconv"
	"time"

	"tapelab/engine/autograd"
	"tapelab/wasm/app"
	"tapelab/wasm/ui"
)

// stepperView is the bar of step controls and counters.
type stepperView struct {
	sv       *View
	root     dom.Elem
	fwd, bwd dom.Elem // counters
	upd      ui.Text  // the update phase's counter, written when it changes
	optBox   dom.Elem // the update phase's optimizer and η, shown with its counter once the phase is reachable
	said     dom.Elem // the last step in words (a live region)
	play     dom.Elem
	speed    dom.Elem
	stop     chan struct{} // closes to stop playing; nil when not playing
}

func newStepperView(sv *View) *stepperView {
	doc := sv.doc
	v := &stepperView{sv: sv}
	v.root = sv.d.Own("stepper", doc.El("section", "class", "stepper", "aria-label", "Step controls"))
	ctl := doc.El("div", "class", "controls", "role", "group", "aria-label", "Step")
	v.play = sv.doc.Button("▶ Play", "Play or pause (space)", v.togglePlay, "id", "play")
	dom.Add(ctl,
		sv.doc.Button("⟲", "Reset to the start (r)", sv.Reset, "id", "reset"),
		sv.doc.Button("◀", "Step back (←)", sv.Back, "id", "step-back"),
		sv.doc.Button("▶", "Step (→)", sv.Step, "id", "step", "class", "primary"),
		v.play,
		sv.doc.Button("⇥ backward", "Finish the forward pass and start backward (b)", sv.ToBackward, "id", "to-backward"),
		sv.doc.Button("▶▶ end", "Run to the end", sv.ToEnd, "id", "to-end"),
	)
	lab := doc.El("label", "class", "speed")
	lab.AppendChild(doc.TextNode("speed "))
	v.speed = doc.El("input", "type", "range", "min", "1", "max", "20", "value", "4", "id", "speed", "aria-label", "Play speed in steps per second")
	lab.AppendChild(v.speed)
	count := doc.El("div", "class", "counters mono", "aria-live", "off")
	v.fwd = doc.El("span", "id", "count-forward")
	v.bwd = doc.El("span", "id", "count-backward")
	v.upd.El = doc.El("span", "id", "count-update")
	dom.Add(count, v.fwd, doc.Txt("span", " · ", "class", "sep"), v.bwd, doc.Txt("span", " · ", "class", "sep"), v.upd.El)
	v.said = doc.El("div", "class", "said", "id", "said", "role", "status", "aria-live", "polite")
	help := sv.doc.Button("?", "Keyboard shortcuts (?)", sv.d.Shortcuts, "id", "help")
	v.optBox = optimizerControl(sv)
	dom.Add(v.root, ctl, lab, count, v.optBox, v.said, sv.d.Tabs(), help)
	return v
}

// update shows the counters and the last event in words.
func (v *stepperView) update(s *app.Stepper, e *autograd.Event) {
	c := s.Counts()
	v.fwd.SetTextContent("forward " + strconv.Itoa(c.Forward) + "/" + strconv.Itoa(c.ForwardTotal))
	v.bwd.SetTextContent("backward " + strconv.Itoa(c.Backward) + "/" + strconv.Itoa(c.BackwardTotal))
	v.updated(s)
	if e == nil {
		return
	}
	name := ""
	if e.Node >= 0 && e.Node < len(s.Nodes()) {
		name = s.Nodes()[e.Node].Title()
	}
	switch e.Kind {
	case autograd.EventForward:
		v.said.SetTextContent("Forward: " + name + " = " + app.Inline(e.Value))
	case autograd.EventBackward:
		side := ""
		if why := s.VisitReason(e.Node); why != "" {
			side = " (" + why + ")"
		} else if s.State(e.Node).Has(app.Side) {
			side = " (dY = 0: the loss does not depend on it)"
		}
		if passed := passedText(s); passed != "" {
			v.said.SetTextContent("Backward: " + name + side + " ran its VJP; " + passed)
		} else {
			v.said.SetTextContent("Backward: " + name + side + " ran its VJP and fed " + strconv.Itoa(len(e.Contribs)) + " contribution(s) to its parents")
		}
	case autograd.EventUndoForward:
		v.said.SetTextContent("Back: " + name + " is unknown again")
	case autograd.EventUndoBackward:
		v.said.SetTextContent("Back: " + name + "'s contributions were taken back")
	case autograd.EventReset:
		v.said.SetTextContent("Reset: nothing computed yet")
	}
	if s.Position().Phase == autograd.PhaseDone {
		v.said.SetTextContent(v.said.TextContent() + ". Backward complete: every gradient is final.")
	}
	v.sayNaN(s)
}

// jumped says where the stepper stands after a move of many steps (a
// reset, to the backward pass, to the end), which no one step's event
// describes.
func (v *stepperView) jumped(s *app.Stepper) {
	c := s.Counts()
	switch {
	case v.saidUpdate(s):
	case s.Position().Phase == autograd.PhaseDone:
		v.said.SetTextContent("At the end: every gradient is final.")
	case c.Backward > 0:
		v.said.SetTextContent("At backward " + strconv.Itoa(c.Backward) + "/" + strconv.Itoa(c.BackwardTotal) + ".")
	case c.Forward == c.ForwardTotal:
		v.said.SetTextContent("Forward done: the next step is the first VJP.")
	case c.Forward > 0:
		v.said.SetTextContent("At forward " + strconv.Itoa(c.Forward) + "/" + strconv.Itoa(c.ForwardTotal) + ".")
	default:
		v.said.SetTextContent("Reset: nothing computed yet")
	}
	v.sayNaN(s)
}

// recorded says where a newly recorded tape stands (a link, a lesson stop
// or an edit recorded it), so that no step of the old tape is still said.
func (v *stepperView) recorded(s *app.Stepper) {
	c := s.Counts()
	switch {
	case s.Position().Phase == autograd.PhaseDone:
		v.said.SetTextContent("Tape recorded, at its end: every gradient is final.")
	case c.Backward > 0:
		v.said.SetTextContent("Tape recorded, at backward " + strconv.Itoa(c.Backward) + "/" + strconv.Itoa(c.BackwardTotal) + ".")
	case c.Forward > 0:
		v.said.SetTextContent("Tape recorded, at forward " + strconv.Itoa(c.Forward) + "/" + strconv.Itoa(c.ForwardTotal) + ".")
	default: // at the start there is nothing to say (the server's first view has no line either)
		v.said.SetTextContent("")
	}
}

// togglePlay starts or stops stepping on a timer at the chosen speed.
func (v *stepperView) togglePlay() {
	if v.stop != nil {
		v.pause()
		return
	}
	stop := make(chan struct{})
	v.stop = stop
	v.play.SetTextContent("⏸ Pause")
	v.play.SetAttribute("aria-pressed", "true")
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-debounce.Elapsed(time.Second / time.Duration(v.rate())):
			}
			more := true
			dom.Recovered("play", v.sv.d.ShowError, func() { more = v.sv.StepOnce() && !v.nanStop() })
			if !more {
				dom.Recovered("play", v.sv.d.ShowError, v.pause)
				return
			}
		}
	}()
}

// rate is the chosen play speed, in steps per second (at least 1).
func (v *stepperView) rate() int {
	r, _ := strconv.Atoi(v.speed.Value())
	return max(r, 1)
}

// pause stops playing.
func (v *stepperView) pause() {
	if v.stop == nil {
		return
	}
	close(v.stop)
	v.stop = nil
	v.play.SetTextContent("▶ Play")
	v.play.SetAttribute("aria-pressed", "false")
}

// passedText says why the quiet nodes the last step ran with it are no
// steps of their own ("" when there are none), first what a person must
// see: the line may be cut at the stepper's width.
func passedText(s *app.Stepper) string {
	out := ""
	for k, i := range s.Passed() {
		if k > 0 {
			out += "; "
		}
		out += s.Nodes()[i].Title() + " is no step of its own: the loss does not depend on it (its VJP on dY = 0 added nothing)"
	}
	return out
}
