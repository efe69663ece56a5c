package spec

import (
	"bytes"
	"testing"
)

// FuzzDecode: no input panics; whatever decodes encodes, and the encoding
// decodes to an equal model with the same encoding.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(example))
	f.Add([]byte(`{"version":1,"input":[1,6,6],"layers":[{"type":"conv2d","out_channels":2,"kernel_size":3,"padding":1},{"type":"max_pool2d","kernel_size":2},{"type":"flatten"},{"type":"batch_norm"},{"type":"linear","out":3}],"loss":"cross_entropy","seed":3}`))
	f.Add([]byte(`{"version":1,"input":[2],"layers":[{"type":"linear","out":1}],"loss":"bce_with_logits","dataset":{"name":"xor","noise":0.1},"optimizer":{"name":"adam","betas":[0.5,0.9]},"batch_size":3}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(data)
		if err != nil {
			return
		}
		b, err := Encode(m)
		if err != nil {
			t.Fatalf("decoded model does not encode: %v", err)
		}
		m2, err := Decode(b)
		if err != nil {
			t.Fatalf("encoding %s does not decode: %v", b, err)
		}
		b2, _ := Encode(m2)
		if !bytes.Equal(b, b2) {
			t.Fatalf("encoding not stable:\n%s\n%s", b, b2)
		}
	})
}
