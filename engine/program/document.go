package program

import (
	"errors"
	"fmt"
	"strconv"

	"tapelab/engine/jsontext"
)

// MaxSource bounds a program's text, in bytes; Parse rejects longer ones,
// so that a shared program stays small.
const MaxSource = 64 << 10

// DocumentVersion is the version of the program document.
const DocumentVersion = 1

// The program document is how the share service stores a program:
//
//	{"version":1,"program":"a = param(2.0)\nb = a * a\n"}
//
// "program" holds the text exactly as written (comments and layout kept,
// so that the editor shows it again); both fields are required and no
// other is allowed. EncodeDocument writes its one canonical form, so equal
// texts give equal bytes.

// EncodeDocument returns the canonical program document of src.
func EncodeDocument(src string) ([]byte, error) {
	var w jsontext.Writer
	w.Object()
	w.Key("version")
	w.Int(DocumentVersion)
	w.Key("program")
	w.String(src)
	w.EndObject()
	return w.Bytes()
}

// DecodeDocument reads a program document strictly and parses its program.
// A JSON fault names the field; a fault in the program is reported as
// "program: line L, col C: …" and wraps the *Error.
func DecodeDocument(data []byte) (string, *Program, error) {
	root, err := jsontext.Parse(data, jsontext.Options{})
	if err != nil {
		return "", nil, fmt.Errorf("program document: %w", err)
	}
	if root.Kind != jsontext.Object {
		return "", nil, errors.New("program document: want a JSON object {\"version\": 1, \"program\": \"…\"}")
	}
	var src *jsontext.Value
	version := false
	for _, m := range root.Members {
		switch m.Key {
		case "version":
			if m.Value.Kind != jsontext.Number || m.Value.Text != strconv.Itoa(DocumentVersion) {
				return "", nil, fmt.Errorf("version: want %d", DocumentVersion)
			}
			version = true
		case "program":
			if m.Value.Kind != jsontext.String {
				return "", nil, errors.New("program: want the program's text as a JSON string")
			}
			src = m.Value
		default:
			return "", nil, fmt.Errorf("unknown field %q (a program document has version and program)", m.Key)
		}
	}
	switch {
	case !version:
		return "", nil, fmt.Errorf("version: missing (want %d)", DocumentVersion)
	case src == nil:
		return "", nil, errors.New("program: missing")
	}
	p, err := Parse(src.Text)
	if err != nil {
		return "", nil, fmt.Errorf("program: %w", err)
	}
	return src.Text, p, nil
}
