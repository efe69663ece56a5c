// Package link is TapeLab's share link: the whole page state (the model
// document with its dataset, hyperparameters and optionally its trained
// weights, the user's own data points, the stepping position, the chosen
// view, the tape's modes and the classroom flags) packed into a URL
// fragment.
//
// A link reads "#v1." followed by the base64url text (no padding) of the
// raw-deflated JSON envelope
//
//	{"model": <engine/spec document>, "view": "train",
//	 "pos": {"phase": "backward", "node": 7},
//	 "modes": {"compiled": true, "single": true, "eval": true, "l2": 0.01},
//	 "flags": {"hide": ["lr"], "lock": ["model"], "embed": true},
//	 "points": {"x": [[0.1, 0.2], …], "y": [1, …]},
//	 "drawing": {"example": 0, "strokes": [[40, 20, 41, 26, …], …]},
//	 "accumulate": true,
//	 "compare": [{"name": "momentum"}, {"name": "adam", "lr": 0.01}]}
//
// in which every field but model is optional and absent when it holds its
// default ("accumulate": true turns off zeroing the gradients before each
// backward pass; links written before it existed zero them, as before;
// "compare" lists the optimizers the training view runs beside the
// model's own, in the model document's optimizer format).
//
// A program link (engine/program) carries the program's text, exactly as
// written, in place of the model, with the same optional view (step only),
// pos, modes and flags:
//
//	{"program": "a = param(2.0)\nb = a * a\n", "pos": {"phase": "backward", "node": 2}}
//
// and, in forward mode, its direction, one row per leaf: "forward": [[1, 0],
// [0.5]]. Links without it open in reverse mode, as before.
//
// The stepper's update phase (→ after the backward pass: the optimizer's
// step per parameter tensor, then the next forward) travels as
//
//	"update": {"n": 1, "steps": [1, 1], "buffers": [[[0.5], []]]}
//
// (the tensors updated in the phase, and the optimizer's state as the
// phase started: its steps per tensor, and per buffer per tensor its
// values, empty before the tensor's first step). A model's optimizer is
// its document's, and its weights, those the phase started from, the
// document's params. A program's optimizer, when it is not SGD at its
// defaults, is the envelope's own, in the model document's format:
//
//	"optimizer": {"name": "adam", "lr": 0.01}
//
// and its weights, when the update phases moved them off the literals its
// text writes, are the envelope's "params": every param(…) of the program
// by its name, in the order the program writes them, its entries
// row-major, as the phase started: "params": {"a": [2.0118], "b": [-3.1]}.
// Links without them step with SGD from the text's literals, as before.
//
// An envelope holds a model or a program, never both; points, batch,
// compare and drawing (see Drawing) belong to models, optimizer and params
// to programs. This is still version 1: the prefix, the deflate
// dictionary and every model link are unchanged (older pages refuse the
// unknown "program" field, as they must). Encode is canonical (equal states give equal links). Decode is
// strict: a bad prefix, broken base64, a cut deflate stream, unknown or
// ill-typed fields and any fault the model spec finds are errors of type
// *Error naming the part of the link at fault. Version 1 links are kept as
// fixtures in testdata so that later versions prove they still open them.
package link

import (
	"tapelab/engine/spec"
	"tapelab/engine/train"
	"tapelab/wasm/app"
)

// Prefix starts every version 1 link fragment (after the '#').
const Prefix = "v1."

// Budget is the longest full link (page address and fragment, in
// characters) that is offered as is; a longer state goes through the
// share service as a short link.
const Budget = 2000

// MaxExpanded bounds the decompressed size of a link's envelope, so that a
// crafted link cannot make the page inflate gigabytes.
const MaxExpanded = 1 << 20

// MaxCompare bounds the optimizers a link's training view runs beside the
// model's own (Compare): three runs in all.
const MaxCompare = 2

// MaxPoints bounds the user's own examples a link may carry.
const MaxPoints = 2000

// Views a link may choose.
const (
	ViewStep  = "step"  // the stepping playground (the default)
	ViewTrain = "train" // the training view
)

// Phases of the stepping position.
const (
	PhaseForward  = "forward"
	PhaseBackward = "backward"
	PhaseDone     = "done"
)

// State is everything a link carries. The zero value of each field but
// Model is its default.
type State struct {
	// Model is the model document: layers, loss, initialisation seed,
	// dataset (name, size, noise, train/test split, seed), optimizer
	// (learning rate, momentum, Adam's betas, weight decay), batch size and
	// steps, and, when set, the parameter values (trained weights).
	Model *spec.Model
	// Program, when not empty, is a program's text (engine/program), and
	// Model is nil: the link opens the program instead of a model.
	Program string
	// Points, when not nil, are the user's own examples, used instead of
	// the generated dataset.
	Points *Points
	// Batch, when not nil, is the stepping view's mini-batch (e.g. the
	// training step being inspected); nil means the dataset's first
	// examples.
	Batch *Points
	// View is ViewStep ("" means the same) or ViewTrain.
	View string
	// Pos is where the stepper stands.
	Pos Position
	// Modes are the tape's recording modes (eager or compiled, dense or
	// single-output backward, train or eval, L2 penalty).
	Modes app.Modes
	// Flags are the classroom settings.
	Flags Flags
	// Drawing, when not nil, is an input drawn on the drawing pad that
	// replaces one example of the mini-batch (an image classifier's).
	Drawing *Drawing
	// Accumulate switches off the Step view's "zero gradients before
	// backward": each backward pass then adds its parameter gradients to
	// those the earlier passes left (PyTorch's .grad without zero_grad()).
	// False, the default, zeroes them before every pass.
	Accumulate bool
	// Forward, when not nil, opens a program in forward mode along this
	// direction: one row per leaf of the program, in the order the program
	// writes them, holding the leaf's entries row-major (a one-hot when the
	// page chose a leaf). nil is reverse mode; models have no forward mode.
	Forward [][]float64
	// Compare, when not empty, lists up to MaxCompare optimizers that the
	// training view runs beside the model's own, from the same initial
	// weights and in the same batch order, their losses in one chart
	// (models only).
	Compare []train.OptimizerConfig
	// Update, when not nil, is the stepper's update phase at the end of
	// the backward pass (Pos is done): a model link's weights are those
	// the phase started from, and the optimizer the model document's; a
	// program link's are Params and Optimizer.
	Update *Update
	// Optimizer, when not nil, is a program's optimizer of the update
	// phase (a model's is its document's); nil is SGD at its defaults.
	Optimizer *train.OptimizerConfig
	// Params, when not nil, are a program's weights: every param leaf of
	// the program by its name, its entries row-major, replacing the
	// literal its text writes (the weights an update phase started from).
	// nil: the text's literals.
	Params map[string][]float64
}

// Update is where an update phase stands: N parameter tensors updated,
// and the optimizer's state when the phase started (train's
// OptimizerState: steps per tensor; per buffer, per tensor, its values,
// empty before the tensor's first step).
type Update struct {
	N       int
	Steps   []int
	Buffers [][][]float64
}

// Position is where the stepper stands: the phase and the node its next
// step handles. The zero value ("" phase) is the start, the same as
// {PhaseForward, 0}; PhaseDone has Node -1.
type Position struct {
	Phase string
	Node  int
}

// IsStart reports whether p is the stepper's starting position.
func (p Position) IsStart() bool {
	return (p.Phase == "" || p.Phase == PhaseForward) && p.Node == 0
}

// Points are examples the user added by clicking or pasting a CSV: X holds
// one flattened input per row, Y one target per example (a class index for
// classification, a number for regression).
type Points struct {
	X [][]float64
	Y []float64
}

// Flags are TensorFlow Playground's classroom settings and more.
type Flags struct {
	// Hide lists controls that are not shown (TF Playground's <control>_hide).
	Hide []string
	// Lock lists controls that are shown but cannot be changed.
	Lock []string
	// Embed shows only the model and the stepper, for an iframe.
	Embed bool
	// Presenter enlarges type and strokes and raises contrast for a projector.
	Presenter bool
	// Explain opens the side panel that walks through the chain rule.
	Explain bool
}

// Controls are the names Flags.Hide and Flags.Lock accept, each one a
// control (or group of controls) of the page.
func Controls() []string {
	return []string{
		"dataset",   // the dataset menu
		"model",     // the model editor (add, remove, configure layers)
		"modes",     // eager/compiled, dense/single, train/eval, L2 switches
		"stepper",   // the stepping buttons and speed
		"train",     // play, pause, step-one-batch of the training view
		"lr",        // learning rate
		"batch",     // batch size
		"optimizer", // SGD, momentum, Adam
		"l2",        // weight decay
		"noise",     // dataset noise
		"split",     // train/test split
		"points",    // adding points and pasting CSV
		"share",     // copy link and short link
		"export",    // downloads
		"views",     // the Step/Train switch
	}
}

// IsControl reports whether name is one of Controls.
func IsControl(name string) bool {
	for _, c := range Controls() {
		if c == name {
			return true
		}
	}
	return false
}

// Hidden reports whether control c is hidden.
func (f Flags) Hidden(c string) bool { return contains(f.Hide, c) }

// Locked reports whether control c is locked (hidden controls count as locked).
func (f Flags) Locked(c string) bool { return contains(f.Lock, c) || contains(f.Hide, c) }

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
