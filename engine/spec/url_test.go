package spec

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func TestURLRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 300; i++ {
		m := randModel(t, r)
		s, err := EncodeURL(m)
		if err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(s, "+/=") {
			t.Fatalf("link %q is not URL-safe", s)
		}
		d, err := DecodeURL(s)
		if err != nil {
			t.Fatalf("model %d: %v", i, err)
		}
		if !reflect.DeepEqual(d, m) || !sameBits(d, m) {
			t.Fatalf("model %d: link round trip differs", i)
		}
	}
}

func TestDecodeURLErrors(t *testing.T) {
	deflate := func(b []byte) string {
		var buf bytes.Buffer
		w, _ := flate.NewWriter(&buf, flate.BestCompression)
		w.Write(b)
		w.Close()
		return base64.RawURLEncoding.EncodeToString(buf.Bytes())
	}
	tests := []struct{ in, want string }{
		{"a+b", "link: not base64url text (illegal base64 data at input byte 1)"},
		{"AAAA", "link: not a compressed model document (unexpected EOF)"},
		{deflate(bytes.Repeat([]byte(" "), MaxLinkDocument+10)), "link: the document is larger than 8388608 bytes"},
		{deflate([]byte(`{"version":1,"input":[2],"layers":[{"type":"linear"}],"loss":"mse"}`)), "layers[0].out: missing (linear needs out)"},
	}
	for _, tc := range tests {
		if _, err := DecodeURL(tc.in); err == nil || err.Error() != tc.want {
			t.Errorf("DecodeURL(%.20q): err = %v, want %s", tc.in, err, tc.want)
		}
	}
}

func FuzzDecodeURL(f *testing.F) {
	m, err := Decode([]byte(example))
	if err != nil {
		f.Fatal(err)
	}
	s, _ := EncodeURL(m)
	f.Add(s)
	f.Add("")
	f.Add("AAAA")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := DecodeURL(s)
		if err != nil {
			return
		}
		if _, err := EncodeURL(m); err != nil {
			t.Fatalf("decoded model does not encode: %v", err)
		}
	})
}
