package ir

import (
	"os"
	"strings"
	"testing"
)

// TestEncodeEscapesNames: a tensor name with control, non-ASCII and HTML
// characters survives Encode and Decode (strconv.Quote once wrote \a,
// which is not JSON).
func TestEncodeEscapesNames(t *testing.T) {
	data, err := os.ReadFile("testdata/mlp.json")
	if err != nil {
		t.Fatal(err)
	}
	const name = "0.w\a\u00ff😀<&\"\\"
	doc := strings.Replace(string(data), `"0.weight"`, `"0.w\u0007\u00ff\ud83d\ude00<&\"\\"`, 1)
	g, err := Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	enc, err := Encode(g)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(enc)
	if err != nil {
		t.Fatalf("Decode(Encode(g)): %v\n%s", err, enc)
	}
	if !sameGraph(g, back) || back.Payload[1].Weight.Name != name {
		t.Errorf("round trip changed the graph:\n%s", enc)
	}
}
