// Package lesson is TapeLab's lesson: a teacher's walk-through of the
// playground as an ordered list of stops, each one a playground state (the
// very state a share link carries, wasm/link's State), a caption and an
// optional question the student answers before the page reveals it.
//
// # Document
//
// A lesson is version 1 JSON:
//
//	{"version": 1, "title": "The chain rule",
//	 "stops": [
//	   {"state": {"program": "a = param(2.0)\n…", "pos": {"phase": "backward", "node": 6}},
//	    "caption": "The **output** is `L`.\nPress → to run its VJP.",
//	    "select": 6,
//	    "question": {"node": 4, "of": "grad", "element": 0, "answer": "number"}},
//	   …]}
//
// A stop's "state" is a link envelope, written and read by wasm/link (its
// JSON and DecodeJSON): a model or a program, with its view, position,
// modes and flags. "caption" is text in the caption format (see Parse:
// paragraphs, **bold**, `code`, line breaks), absent when empty.
// "select" is the node the page selects (its chain-rule card shows), absent
// when none. "question" asks for node's value ("of": "value") or gradient ("grad") at
// a flat element index, answered as a number or as a sign ("answer":
// "number" or "sign"); the answer itself is never stored: the engine
// computes it (Answer) and Score grades the student's guess against it.
//
// Encode writes one canonical form (members in the order above, the
// state's canonical envelope, caption, select and question left out when
// absent,
// a question's four members always written), so equal lessons give equal
// bytes and equal share ids. Decode is strict: syntax faults, duplicate
// and unknown members, wrong types (null included), a version other than
// 1, a missing title or stops, more than MaxStops stops, over-long text
// and every fault wasm/link finds in a state are *Errors whose Path names
// the stop and field at fault ("stops[2].question.node",
// "stops[0].state.pos.phase").
//
// # Links
//
// A lesson travels in a URL fragment as Prefix ("l1.") followed by its
// canonical document deflated and base64url-encoded exactly as a state
// link's envelope is (wasm/link's Deflate, with the v1 dictionary, so the
// envelopes inside a lesson compress as well as in a state link). The
// prefix differs from state links' "v1.", so every state link keeps
// opening as before, and a page older than lessons refuses a lesson link
// with its "not a TapeLab link, or one from a newer version" message. A
// lesson whose link is longer than link.Budget goes to the share service
// as a document instead (IsDocument tells the kinds apart); the short
// link /s/{id} then opens it.
//
// # Playing a lesson
//
// Open records the step a stop's state shows (through wasm/app, as the
// page does) and stands its stepper at the stop's position; Answer steps
// on until the number a question asks for is complete; Score grades the
// student's guess against it (its doc states the rule: right within 1%,
// else the sign, the factor or the percentage it is off by); Check does
// all of this for every stop. Parse turns a caption into paragraphs of
// styled text spans that the page renders as text nodes, never as HTML.
//
// # Tests
//
// The lessons kept in testdata (each as its document and its link) must
// decode to the lessons they were made from forever, and the encoder must
// keep writing them byte for byte; the built-in lessons are kept the same
// way, and a test steps every stop of each through wasm/app to prove that
// its position and selected node exist and its question's answer is
// computable. The error
// table names the stop and field of each fault. FuzzDecode feeds Decode
// and DecodeFragment arbitrary input (no panic, every error an *Error,
// everything accepted re-encodes to itself); its corpus is kept in
// testdata/fuzz.
package lesson

import (
	"tapelab/wasm/link"
)

// Version is the version of the lesson document.
const Version = 1

// Prefix starts every version 1 lesson fragment (after the '#').
const Prefix = "l1."

// Limits of a lesson document.
const (
	MaxStops   = 50   // stops in one lesson
	MaxTitle   = 200  // bytes of the title
	MaxCaption = 4000 // bytes of one caption
)

// What a question asks for.
const (
	OfValue = "value" // the node's forward value
	OfGrad  = "grad"  // the node's gradient
)

// How a question is answered.
const (
	AnswerNumber = "number" // the student types a number
	AnswerSign   = "sign"   // the student picks positive, negative or zero
)

// Lesson is an ordered walk-through of playground states.
type Lesson struct {
	// Title names the lesson (the examples menu, the page's heading).
	Title string
	// Stops are the lesson's states in order; a lesson has at least one.
	Stops []Stop
}

// Stop is one state of a lesson with what the teacher says about it.
type Stop struct {
	// State is the playground state the stop opens, as a link carries it.
	State *link.State
	// Caption is the teacher's text in the caption format (see Parse);
	// empty means none.
	Caption string
	// Select, when not nil, is the node the page selects at this stop:
	// the inspector and the chain-rule card open on it.
	Select *int
	// Question, when not nil, asks the student to predict a number the
	// next steps produce before the page shows it.
	Question *Question
}

// Question asks for one element of a node's value or gradient.
type Question struct {
	// Node is the tape node asked about.
	Node int
	// Of is OfValue or OfGrad.
	Of string
	// Element is the flat (row-major) index of the element asked about; 0
	// for a scalar.
	Element int
	// Answer is AnswerNumber or AnswerSign.
	Answer string
}

// Error is a fault in a lesson: Path names the stop and field at fault
// ("stops[2].question.node", "stops[0].state.model", "title", "version",
// and for a fragment "prefix", "base64" or "deflate"); Msg or Err says
// what is wrong (Msg wins; for a bad state Err holds wasm/link's
// *link.Error, whose part Path already names).
type Error struct {
	Path string
	Msg  string
	Err  error
}

// Error returns e.g. "lesson stops[2].question.node: must be ≥ 0, got -1".
func (e *Error) Error() string {
	msg := e.Msg
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	if e.Path == "" {
		return "lesson: " + msg
	}
	return "lesson " + e.Path + ": " + msg
}

// Unwrap returns the underlying error (a *link.Error for a bad state).
func (e *Error) Unwrap() error { return e.Err }
