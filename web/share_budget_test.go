package web

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// hostileDocuments are documents within the per-value and per-document
// size limits whose forward and backward pass would take the server or a
// tab down (issue 35), each with the start of the message that refuses it.
func hostileDocuments() []struct{ name, body, want string } {
	products := "m = broadcast_to(0.5, shape=[1024, 1024])\na0 = m * m\n"
	for i := 1; i <= 300; i++ {
		products += "a" + strconv.Itoa(i) + " = a" + strconv.Itoa(i-1) + " * m\n"
	}
	conv := "x = broadcast_to(1.0, shape=[1, 1, 1024, 1024])\nw = broadcast_to(0.5, shape=[1, 1, 512, 512])\nb = param([0.0])\ny = conv2d(x, w, b)\n"
	programDoc := func(src string) string {
		b, _ := json.Marshal(map[string]any{"version": 1, "program": src})
		return string(b)
	}
	layers := strings.TrimSuffix(strings.Repeat(`{"type": "linear", "out": 4096},`, 200), ",")
	wide := `{"version": 1, "input": [4096], "layers": [` + layers + `], "loss": "mse"}`
	lessonDoc, _ := json.Marshal(map[string]any{"version": 1, "title": "Too large", "stops": []any{
		map[string]any{"state": map[string]any{"program": "x = param(2.0)\ny = x * x\n"}, "caption": "fine"},
		map[string]any{"state": map[string]any{"program": conv}, "caption": "too large"},
	}})
	return []struct{ name, body, want string }{
		{"300 products of 1024² values", programDoc(products), "program: the program: 6.3e8 elements held in all, the limit is 1.6e7 (40× over); the largest part is broadcast_to at line 1"},
		{"a 1024² conv2d with a 512² kernel", programDoc(conv), "program: conv2d at line 4: 2.1e11 multiply-adds, the limit is 1e9 (207× over)"},
		{"200 linear layers of 4096", wide, "layer 0 (linear): 3.4e7 elements held, the limit is 1.6e7 (2.1× over)"},
		{"a lesson stop with the conv2d", string(lessonDoc), "lesson stops[1].state.program: conv2d at line 4: 2.1e11 multiply-adds"},
	}
}

// TestShareRefusesDocumentsOverBudget: each hostile document is refused
// at POST with 400 naming the part at fault and by how much, and nothing
// is stored.
func TestShareRefusesDocumentsOverBudget(t *testing.T) {
	h, store := newShareHandler(t)
	for _, d := range hostileDocuments() {
		rec := post(h, d.body)
		var e map[string]string
		if err := json.Unmarshal(rec.Body.Bytes(), &e); rec.Code != http.StatusBadRequest || err != nil || !strings.HasPrefix(e["error"], d.want) {
			t.Errorf("%s: %d %s, want 400 with %q", d.name, rec.Code, rec.Body, d.want)
		}
	}
	if n := len(names(t, store.Dir())); n != 0 {
		t.Errorf("refused documents left %d files in the store", n)
	}
}
