package link

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"tapelab/engine/spec"
)

// Error is a fault in a link: Part names where ("prefix", "base64",
// "deflate", "envelope", "model", "program", "pos.phase", "flags.hide[2]",
// …), and Msg or Err says what is wrong (Err holds the model spec's
// *spec.Error, or the program's *program.Error naming line and column).
type Error struct {
	Part string
	Msg  string
	Err  error
}

// Error returns e.g. "link model: layers[2].out: must be ≥ 1".
func (e *Error) Error() string {
	msg := e.Msg
	if e.Err != nil {
		msg = e.Err.Error()
	}
	return "link " + e.Part + ": " + msg
}

// Unwrap returns the underlying error (a *spec.Error for the model, a
// *program.Error for the program).
func (e *Error) Unwrap() error { return e.Err }

// Decode reads a link fragment, with or without its leading '#', and
// returns the state it carries, or an *Error naming what is wrong.
func Decode(fragment string) (*State, error) {
	raw, err := Expand(fragment)
	if err != nil {
		return nil, err
	}
	return DecodeJSON(raw)
}

// Expand undoes the link's packing: it checks the prefix, decodes the
// base64url text and inflates it, returning the envelope's JSON.
func Expand(fragment string) ([]byte, error) {
	f := strings.TrimPrefix(fragment, "#")
	if f == "" {
		return nil, &Error{Part: "prefix", Msg: "the link is empty"}
	}
	if !strings.HasPrefix(f, Prefix) {
		v, _, _ := strings.Cut(f, ".")
		if len(v) > 12 {
			v = v[:12] + "…"
		}
		return nil, &Error{Part: "prefix", Msg: fmt.Sprintf("starts with %q, not %q: not a TapeLab link, or one from a newer version", v, Prefix)}
	}
	return Inflate(f[len(Prefix):])
}

// Inflate undoes Deflate: it decodes the base64url body and inflates it
// with the v1 dictionary, up to MaxExpanded bytes. Its faults are *Errors
// of part "base64" or "deflate".
func Inflate(body string) ([]byte, error) {
	packed, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil {
		var ce base64.CorruptInputError
		if errors.As(err, &ce) {
			return nil, &Error{Part: "base64", Msg: fmt.Sprintf("character %d of the link's body is not base64url (was the link cut short or changed?)", int64(ce)+1)}
		}
		return nil, &Error{Part: "base64", Err: err}
	}
	// Reading one byte past the limit tells a stream that expands too far
	// without inflating the rest of it. Bytes after the final block are
	// ignored, as compress/flate ignores them.
	r := flate.NewReaderDict(bytes.NewReader(packed), []byte(dictionary))
	defer r.Close()
	raw, err := io.ReadAll(io.LimitReader(r, MaxExpanded+1))
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, &Error{Part: "deflate", Msg: "the link is cut short (its compressed data ends early); copy the whole link"}
	case err != nil:
		return nil, &Error{Part: "deflate", Msg: "the compressed data is corrupt (" + err.Error() + ")"}
	case len(raw) > MaxExpanded:
		return nil, &Error{Part: "deflate", Msg: "expands to more than " + strconv.Itoa(MaxExpanded) + " bytes"}
	}
	return raw, nil
}

// DecodeJSON reads an uncompressed envelope (what JSON writes) strictly:
// unknown fields, wrong types, trailing data and every fault Validate finds
// are errors.
func DecodeJSON(raw []byte) (*State, error) {
	e, err := decodeEnvelope(raw)
	if err != nil {
		return nil, err
	}
	s := &State{View: e.View, Drawing: e.Drawing, Accumulate: e.Accumulate}
	hasModel := len(e.Model) > 0 && string(e.Model) != "null"
	switch {
	case hasModel && e.Program != nil:
		return nil, &Error{Part: "envelope", Msg: "holds both a model and a program; a link carries one"}
	case e.Program != nil:
		s.Program = *e.Program
		if s.Program == "" {
			return nil, &Error{Part: "program", Msg: "empty"}
		}
	case !hasModel:
		return nil, &Error{Part: "model", Msg: "missing"}
	default:
		m, err := spec.Decode(e.Model)
		if err != nil {
			return nil, &Error{Part: "model", Err: err}
		}
		s.Model = m
	}
	if s.View == "" {
		s.View = ViewStep
	}
	if e.Pos != nil {
		s.Pos = Position{Phase: e.Pos.Phase, Node: e.Pos.Node}
		if s.Pos.Phase == "" {
			return nil, &Error{Part: "pos.phase", Msg: "missing (want forward, backward or done)"}
		}
	}
	if e.Modes != nil {
		s.Modes.Compiled, s.Modes.Single, s.Modes.Eval, s.Modes.L2 = e.Modes.Compiled, e.Modes.Single, e.Modes.Eval, e.Modes.L2
	}
	if e.Flags != nil {
		s.Flags = Flags{Hide: e.Flags.Hide, Lock: e.Flags.Lock, Embed: e.Flags.Embed, Presenter: e.Flags.Presenter, Explain: e.Flags.Explain}
	}
	if e.Points != nil {
		if e.Points.X == nil || e.Points.Y == nil {
			return nil, &Error{Part: "points", Msg: "needs both x and y"}
		}
		s.Points = &Points{X: e.Points.X, Y: e.Points.Y}
	}
	if e.Batch != nil {
		if e.Batch.X == nil || e.Batch.Y == nil {
			return nil, &Error{Part: "batch", Msg: "needs both x and y"}
		}
		s.Batch = &Points{X: e.Batch.X, Y: e.Batch.Y}
	}
	s.Forward, s.Compare = e.Forward, e.Compare
	s.Update, s.Optimizer = e.Update, e.Optimizer
	if e.Params != nil {
		s.Params = make(map[string][]float64, len(e.Params))
		for _, p := range e.Params {
			s.Params[p.Name] = p.Data
		}
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}
