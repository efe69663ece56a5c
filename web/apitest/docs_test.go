package apitest

import (
	"bytes"
	"testing"

	"tapelab/engine/spec"
)

func TestSpecDocs(t *testing.T) {
	if _, err := SpecDocs(); err != nil {
		t.Fatal(err)
	}
}

func TestModelDocIsCanonical(t *testing.T) {
	for _, i := range []int{0, 1, 7, 1 << 40} {
		doc := ModelDoc(i)
		m, err := spec.Decode(doc)
		if err != nil {
			t.Fatalf("ModelDoc(%d) is not valid: %v", i, err)
		}
		canonical, err := spec.Encode(m)
		if err != nil || !bytes.Equal(canonical, doc) {
			t.Fatalf("ModelDoc(%d) = %s, spec.Encode writes %s (%v)", i, doc, canonical, err)
		}
	}
	if bytes.Equal(ModelDoc(1), ModelDoc(2)) {
		t.Fatal("ModelDoc gives equal documents for different i")
	}
}
