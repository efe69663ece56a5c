package spec

import "testing"

// TestCanonicalPinned pins the canonical bytes of a few documents: the
// share service derives ids from them, so a change here changes every id.
func TestCanonicalPinned(t *testing.T) {
	cases := []struct{ doc, want string }{
		{example,
			"{\"version\":1,\"input\":[2],\"layers\":[{\"type\":\"linear\",\"out\":16},{\"type\":\"tanh\"},{\"type\":\"linear\",\"out\":1}],\"loss\":\"mse\",\"seed\":7,\"params\":{\"0.weight\":[[0.1,-0.2],[0.1,-0.2],[0.1,-0.2],[0.1,-0.2],[0.1,-0.2],[0.1,-0.2],[0.1,-0.2],[0.1,-0.2],[0.1,-0.2],[0.1,-0.2],[0.1,-0.2],[0.1,-0.2],[0.1,-0.2],[0.1,-0.2],[0.1,-0.2],[0.1,-0.2]],\"2.bias\":[0]}}"},
		{`{"version":1,"input":[1,6,6],"layers":[{"type":"conv2d","out_channels":2,"kernel_size":3,"padding":1},{"type":"max_pool2d","kernel_size":2},{"type":"flatten"},{"type":"batch_norm"},{"type":"linear","out":3}],"loss":"cross_entropy","seed":3}`,
			"{\"version\":1,\"input\":[1,6,6],\"layers\":[{\"type\":\"conv2d\",\"out_channels\":2,\"kernel_size\":3,\"padding\":1},{\"type\":\"max_pool2d\",\"kernel_size\":2},{\"type\":\"flatten\"},{\"type\":\"batch_norm\"},{\"type\":\"linear\",\"out\":3}],\"loss\":\"cross_entropy\",\"seed\":3}"},
		{`{"version":1,"input":[2],"layers":[{"type":"linear","out":1}],"loss":"bce_with_logits","dataset":{"name":"xor","noise":0.1},"optimizer":{"name":"adam","betas":[0.5,0.9]},"batch_size":3}`,
			"{\"version\":1,\"input\":[2],\"layers\":[{\"type\":\"linear\",\"out\":1}],\"loss\":\"bce_with_logits\",\"seed\":0,\"dataset\":{\"name\":\"xor\",\"noise\":0.1},\"optimizer\":{\"name\":\"adam\",\"betas\":[0.5,0.9]},\"batch_size\":3}"},
		{`{"version":1,"input":[2],"layers":[{"type":"linear","out":2}],"loss":"mse","params":{"0.weight":[[1e-7,-0.0],[123456789012345678901234,0.30000000000000004]],"0.bias":[5e-324,1.7976931348623157e308]}}`,
			"{\"version\":1,\"input\":[2],\"layers\":[{\"type\":\"linear\",\"out\":2}],\"loss\":\"mse\",\"seed\":0,\"params\":{\"0.weight\":[[1e-7,-0],[1.2345678901234569e+23,0.30000000000000004]],\"0.bias\":[5e-324,1.7976931348623157e+308]}}"},
		{`{"version":1,"input":[3],"layers":[{"type":"layer_norm","eps":1e-5},{"type":"layer_norm","eps":0.001},{"type":"linear","out":1,"bias":true}],"loss":"mse"}`,
			"{\"version\":1,\"input\":[3],\"layers\":[{\"type\":\"layer_norm\"},{\"type\":\"layer_norm\",\"eps\":0.001},{\"type\":\"linear\",\"out\":1}],\"loss\":\"mse\",\"seed\":0}"},
	}
	for i, tc := range cases {
		m, err := Decode([]byte(tc.doc))
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		b, err := Encode(m)
		if err != nil || string(b) != tc.want {
			t.Errorf("case %d: Encode = %s, %v\nwant %s", i, b, err, tc.want)
		}
	}
}
