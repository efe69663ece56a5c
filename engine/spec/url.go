package spec

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"io"
)

// MaxLinkDocument bounds the size of a document inflated from a link, so
// that a small link cannot expand into an unbounded allocation.
const MaxLinkDocument = 8 << 20

// EncodeURL returns m's canonical document (see Encode) compressed with
// DEFLATE and written in unpadded base64url, fit for a URL fragment. Equal
// models give equal strings.
func EncodeURL(m *Model) (string, error) {
	doc, err := Encode(m)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression) // the level is valid, so no error
	w.Write(doc)
	w.Close()
	return base64.RawURLEncoding.EncodeToString(buf.Bytes()), nil
}

// DecodeURL reverses EncodeURL and decodes the document with Decode. A
// string that is not base64url, not DEFLATE data or inflates beyond
// MaxLinkDocument bytes is rejected with an *Error saying so.
func DecodeURL(s string) (*Model, error) {
	z, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, &Error{Msg: fmt.Sprintf("link: not base64url text (%v)", err)}
	}
	doc, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(z)), MaxLinkDocument+1))
	if err != nil {
		return nil, &Error{Msg: fmt.Sprintf("link: not a compressed model document (%v)", err)}
	}
	if len(doc) > MaxLinkDocument {
		return nil, &Error{Msg: fmt.Sprintf("link: the document is larger than %d bytes", MaxLinkDocument)}
	}
	return Decode(doc)
}
