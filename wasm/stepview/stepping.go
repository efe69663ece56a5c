//go:build js && wasm

package stepview

import (
	"tapelab/wasm/app"
)

// StepOnce takes one step (in forward mode, a forward step) and reports
// whether there was one.
// After the backward pass it is the update phase's next step.
func (v *View) StepOnce() bool {
	if s := v.src().Stepper(); s != nil && s.Updating() {
		return v.st.Update(false)
	}
	return v.d.Move(v.prog.step)
}

// Step takes one step.
func (v *View) Step() { v.StepOnce() }

// Back stops playing and takes one step back.
func (v *View) Back() {
	v.stepper.pause()
	if !v.st.Update(true) { // an update, or a next forward, to take back
		v.d.Move((*app.Stepper).Back)
	}
}

// Reset stops playing and takes the stepper back to the start.
func (v *View) Reset() {
	v.stepper.pause()
	v.st.Jump(func(s *app.Stepper) bool { s.Reset(); return true })
}

// ToBackward stops playing and finishes the forward pass, so that the
// next step is the first VJP.
func (v *View) ToBackward() {
	v.stepper.pause()
	v.st.Jump(func(s *app.Stepper) bool { s.ForwardToEnd(); return true })
}

// ToEnd stops playing and runs to the end: of the forward pass in forward
// mode, else of the backward pass.
func (v *View) ToEnd() {
	v.stepper.pause()
	v.st.Jump(func(s *app.Stepper) bool { v.prog.toEnd(s); return true })
}

// TogglePlay starts or stops stepping on a timer at the chosen speed.
func (v *View) TogglePlay() { v.stepper.togglePlay() }

// Pause stops playing.
func (v *View) Pause() { v.stepper.pause() }

// Rate is the chosen play speed, in steps per second (at least 1).
func (v *View) Rate() int { return v.stepper.rate() }
