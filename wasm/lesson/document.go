package lesson

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"tapelab/engine/jsontext"
	"tapelab/wasm/link"
)

// Encode returns the lesson's canonical document. It validates l as
// Decode would.
func Encode(l *Lesson) ([]byte, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	var w jsontext.Writer
	w.Object()
	w.Key("version")
	w.Int(Version)
	w.Key("title")
	w.String(l.Title)
	w.Key("stops")
	w.Array()
	for i, s := range l.Stops {
		env, err := link.JSON(s.State)
		if err != nil {
			return nil, stateError(i, err)
		}
		w.Object()
		w.Key("state")
		w.Raw(env)
		if s.Caption != "" {
			w.Key("caption")
			w.String(s.Caption)
		}
		if s.Select != nil {
			w.Key("select")
			w.Int(int64(*s.Select))
		}
		if q := s.Question; q != nil {
			w.Key("question")
			w.Object()
			w.Key("node")
			w.Int(int64(q.Node))
			w.Key("of")
			w.String(q.Of)
			w.Key("element")
			w.Int(int64(q.Element))
			w.Key("answer")
			w.String(q.Answer)
			w.EndObject()
		}
		w.EndObject()
	}
	w.EndArray()
	w.EndObject()
	return w.Bytes()
}

// Validate checks what Decode checks after parsing: a title, one to
// MaxStops stops, each with a valid state, a caption of valid UTF-8 within
// MaxCaption bytes without control characters other than newline and
// tab, a selected node ≥ 0 and a well-formed question.
func (l *Lesson) Validate() error {
	if err := checkText("title", l.Title, MaxTitle, false); err != nil {
		return err
	}
	if l.Title == "" {
		return &Error{Path: "title", Msg: "empty (a lesson needs a title)"}
	}
	switch n := len(l.Stops); {
	case n == 0:
		return &Error{Path: "stops", Msg: "no stops (a lesson has at least one)"}
	case n > MaxStops:
		return &Error{Path: "stops", Msg: fmt.Sprintf("%d stops, at most %d", n, MaxStops)}
	}
	for i, s := range l.Stops {
		if s.State == nil {
			return &Error{Path: stopPath(i, "state"), Msg: "missing"}
		}
		if err := s.State.Validate(); err != nil {
			return stateError(i, err)
		}
		if err := checkText(stopPath(i, "caption"), s.Caption, MaxCaption, true); err != nil {
			return err
		}
		if s.Select != nil && *s.Select < 0 {
			return &Error{Path: stopPath(i, "select"), Msg: fmt.Sprintf("must be ≥ 0, got %d", *s.Select)}
		}
		if q := s.Question; q != nil {
			if err := q.validate(stopPath(i, "question")); err != nil {
				return err
			}
		}
	}
	return nil
}

func (q *Question) validate(path string) error {
	switch {
	case q.Node < 0:
		return &Error{Path: path + ".node", Msg: fmt.Sprintf("must be ≥ 0, got %d", q.Node)}
	case q.Of != OfValue && q.Of != OfGrad:
		return &Error{Path: path + ".of", Msg: fmt.Sprintf("%q is not what a question asks for (want %s or %s)", q.Of, OfValue, OfGrad)}
	case q.Element < 0:
		return &Error{Path: path + ".element", Msg: fmt.Sprintf("must be ≥ 0, got %d", q.Element)}
	case q.Answer != AnswerNumber && q.Answer != AnswerSign:
		return &Error{Path: path + ".answer", Msg: fmt.Sprintf("%q is not a kind of answer (want %s or %s)", q.Answer, AnswerNumber, AnswerSign)}
	}
	return nil
}

// checkText checks that s is valid UTF-8 of at most max bytes without
// control characters (newlines and tabs allowed when multiline).
func checkText(path, s string, max int, multiline bool) error {
	if len(s) > max {
		return &Error{Path: path, Msg: fmt.Sprintf("%d bytes, at most %d", len(s), max)}
	}
	if !utf8.ValidString(s) {
		return &Error{Path: path, Msg: "not valid UTF-8"}
	}
	for i, r := range s {
		if r < 0x20 && !(multiline && (r == '\n' || r == '\t')) || r == 0x7f {
			return &Error{Path: path, Msg: fmt.Sprintf("control character %U at byte %d", r, i)}
		}
	}
	return nil
}

// stopPath names field of stop i.
func stopPath(i int, field string) string {
	return "stops[" + strconv.Itoa(i) + "]." + field
}

// stateError names a wasm/link fault in stop i's state, e.g.
// "stops[1].state.pos.node".
func stateError(i int, err error) error {
	var le *link.Error
	if !errors.As(err, &le) {
		return &Error{Path: stopPath(i, "state"), Err: err}
	}
	path := stopPath(i, "state")
	if le.Part != "envelope" {
		path += "." + le.Part
	}
	msg := le.Msg
	if msg == "" && le.Err != nil {
		msg = le.Err.Error()
	}
	return &Error{Path: path, Msg: msg, Err: le}
}

// IsDocument reports whether body is a JSON object with a "stops" member:
// a lesson, as opposed to a model or program document.
func IsDocument(body []byte) bool {
	v, err := jsontext.Parse(body, jsontext.Options{})
	return err == nil && v.Kind == jsontext.Object && v.Field("stops") != nil
}

// Decode reads a lesson document strictly (see the package doc); every
// fault is an *Error naming the stop and field at fault.
func Decode(data []byte) (*Lesson, error) {
	root, err := jsontext.Parse(data, jsontext.Options{})
	if err != nil {
		return nil, parseError(err)
	}
	l := &Lesson{}
	var version, title, stops bool
	err = members(root, "", func(key string, v *jsontext.Value, path string) error {
		switch key {
		case "version":
			if v.Kind != jsontext.Number || v.Text != strconv.Itoa(Version) {
				return &Error{Path: path, Msg: fmt.Sprintf("want %d, got %s", Version, describe(v))}
			}
			version = true
			return nil
		case "title":
			title = true
			return str(v, path, &l.Title)
		case "stops":
			stops = true
			if v.Kind != jsontext.Array {
				return typeError(path, "an array of stops", v)
			}
			if len(v.Elems) > MaxStops {
				return &Error{Path: path, Msg: fmt.Sprintf("%d stops, at most %d", len(v.Elems), MaxStops)}
			}
			for i, e := range v.Elems {
				s, err := decodeStop(data, e, i)
				if err != nil {
					return err
				}
				l.Stops = append(l.Stops, s)
			}
			return nil
		}
		return errUnknown
	})
	switch {
	case err != nil:
		return nil, err
	case !version:
		return nil, &Error{Path: "version", Msg: fmt.Sprintf("missing (want %d)", Version)}
	case !title:
		return nil, &Error{Path: "title", Msg: "missing"}
	case !stops:
		return nil, &Error{Path: "stops", Msg: "missing"}
	}
	if err := l.Validate(); err != nil {
		return nil, err
	}
	return l, nil
}

// decodeStop reads stop i; data is the whole document, whose bytes hold
// the stop's envelope as written.
func decodeStop(data []byte, v *jsontext.Value, i int) (Stop, error) {
	var s Stop
	prefix := "stops[" + strconv.Itoa(i) + "]"
	err := members(v, prefix, func(key string, v *jsontext.Value, path string) error {
		switch key {
		case "state":
			if v.Kind != jsontext.Object {
				return typeError(path, "a link envelope (an object)", v)
			}
			st, err := link.DecodeJSON(data[v.Start:v.End])
			if err != nil {
				return stateError(i, err)
			}
			s.State = st
			return nil
		case "caption":
			return str(v, path, &s.Caption)
		case "select":
			var n int
			s.Select = &n
			return integer(v, path, s.Select)
		case "question":
			q, err := decodeQuestion(v, path)
			s.Question = q
			return err
		}
		return errUnknown
	})
	if err == nil && s.State == nil {
		err = &Error{Path: prefix + ".state", Msg: "missing"}
	}
	return s, err
}

func decodeQuestion(v *jsontext.Value, prefix string) (*Question, error) {
	q := &Question{}
	var node, of, answer bool
	err := members(v, prefix, func(key string, v *jsontext.Value, path string) error {
		switch key {
		case "node":
			node = true
			return integer(v, path, &q.Node)
		case "of":
			of = true
			return str(v, path, &q.Of)
		case "element":
			return integer(v, path, &q.Element)
		case "answer":
			answer = true
			return str(v, path, &q.Answer)
		}
		return errUnknown
	})
	switch {
	case err != nil:
		return nil, err
	case !node:
		return nil, &Error{Path: prefix + ".node", Msg: "missing"}
	case !of:
		return nil, &Error{Path: prefix + ".of", Msg: fmt.Sprintf("missing (want %s or %s)", OfValue, OfGrad)}
	case !answer:
		return nil, &Error{Path: prefix + ".answer", Msg: fmt.Sprintf("missing (want %s or %s)", AnswerNumber, AnswerSign)}
	}
	return q, nil
}

// errUnknown marks a member the caller of members does not know.
var errUnknown = errors.New("unknown member")

// members calls fn for each member of the object v at path; fn returns
// errUnknown for a key it does not know.
func members(v *jsontext.Value, path string, fn func(key string, v *jsontext.Value, path string) error) error {
	if v.Kind != jsontext.Object {
		what := "the lesson"
		if path != "" {
			what = path
		}
		return typeError(path, "an object for "+what, v)
	}
	for _, m := range v.Members {
		p := jsontext.Join(path, m.Key)
		if err := fn(m.Key, m.Value, p); err == errUnknown {
			return &Error{Path: p, Msg: "unknown field " + strconv.Quote(m.Key) + known(path)}
		} else if err != nil {
			return err
		}
	}
	return nil
}

// known lists the fields an object at path has, for the unknown field
// message.
func known(path string) string {
	switch {
	case path == "":
		return " (a lesson has version, title and stops)"
	case len(path) > 9 && path[len(path)-9:] == ".question":
		return " (a question has node, of, element and answer)"
	}
	return " (a stop has state, caption, select and question)"
}

func str(v *jsontext.Value, path string, dst *string) error {
	if v.Kind != jsontext.String {
		return typeError(path, "string", v)
	}
	*dst = v.Text
	return nil
}

func integer(v *jsontext.Value, path string, dst *int) error {
	if v.Kind == jsontext.Number {
		if n, err := strconv.Atoi(v.Text); err == nil {
			*dst = n
			return nil
		}
	}
	return typeError(path, "int", v)
}

// typeError words a wrong JSON type as "want int, got a JSON number 1.5".
func typeError(path, want string, v *jsontext.Value) error {
	return &Error{Path: path, Msg: "want " + want + ", got " + describe(v)}
}

func describe(v *jsontext.Value) string {
	got := "a JSON " + [...]string{"null", "bool", "number", "string", "array", "object"}[v.Kind]
	if v.Kind == jsontext.Number {
		got += " " + v.Text
	}
	return got
}

// parseError words a jsontext error as a lesson error.
func parseError(err error) error {
	var se *jsontext.SyntaxError
	var dk *jsontext.DuplicateKeyError
	var de *jsontext.DepthError
	switch {
	case errors.As(err, &dk):
		return &Error{Path: dk.Path, Msg: "appears more than once"}
	case errors.As(err, &de):
		return &Error{Path: de.Path, Msg: fmt.Sprintf("nested deeper than %d", de.Limit)}
	case errors.As(err, &se) && se.EOF:
		return &Error{Msg: "the JSON ends early"}
	case errors.As(err, &se) && se.Trailing:
		return &Error{Msg: "trailing data after the JSON object"}
	case errors.As(err, &se):
		return &Error{Path: se.Path, Msg: fmt.Sprintf("not valid JSON at byte %d: %v", se.Offset, se.Msg)}
	}
	return &Error{Err: err}
}
