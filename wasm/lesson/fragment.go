package lesson

import (
	"errors"
	"fmt"
	"strings"

	"tapelab/wasm/link"
)

// Fragment returns the lesson's link fragment, without the '#': Prefix
// followed by the canonical document packed as a state link's envelope is.
func Fragment(l *Lesson) (string, error) {
	doc, err := Encode(l)
	if err != nil {
		return "", err
	}
	return Prefix + link.Deflate(doc), nil
}

// IsFragment reports whether a URL fragment (with or without its '#')
// holds a lesson rather than a state link.
func IsFragment(fragment string) bool {
	return strings.HasPrefix(strings.TrimPrefix(fragment, "#"), Prefix)
}

// DecodeFragment reads a lesson fragment, with or without its leading
// '#'. A fault in the packing is an *Error of path "prefix", "base64" or
// "deflate"; a fault in the document is Decode's.
func DecodeFragment(fragment string) (*Lesson, error) {
	f := strings.TrimPrefix(fragment, "#")
	if !strings.HasPrefix(f, Prefix) {
		return nil, &Error{Path: "prefix", Msg: fmt.Sprintf("a lesson link starts with %q", Prefix)}
	}
	doc, err := link.Inflate(f[len(Prefix):])
	if err != nil {
		var le *link.Error
		if errors.As(err, &le) {
			return nil, &Error{Path: le.Part, Msg: le.Msg, Err: le}
		}
		return nil, &Error{Path: "deflate", Err: err}
	}
	return Decode(doc)
}

// Link is how a lesson travels from the page at address page (without a
// fragment): as page#fragment when that fits link.Budget, else through the
// share service. Link returns the long link and whether it fits; when it
// does not, the page posts Encode's document to the share service and
// hands out the short link /s/{id} the service answers, which opens the
// stored lesson.
func Link(page string, l *Lesson) (url string, fits bool, err error) {
	f, err := Fragment(l)
	if err != nil {
		return "", false, err
	}
	url = page + "#" + f
	return url, len(url) <= link.Budget, nil
}
