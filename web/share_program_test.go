package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tapelab/engine/program"
)

// post sends body to POST /api/share.
func post(h http.Handler, body string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/share", strings.NewReader(body)))
	return rec
}

// TestShareProgram stores every gallery example as a program document and
// reads it back: the text comes back exactly as written (its caption
// comment included), the id derives from the canonical form, so the same
// program written differently in JSON gets the same id, and /s/{id} opens
// the page.
func TestShareProgram(t *testing.T) {
	h, _ := newShareHandler(t)
	for _, ex := range program.Examples() {
		src := "# " + ex.Caption + "\n" + ex.Text
		doc, err := program.EncodeDocument(src)
		if err != nil {
			t.Fatal(err)
		}
		rec := post(h, string(doc))
		if rec.Code != http.StatusCreated {
			t.Fatalf("%s: POST: %d %s", ex.Name, rec.Code, rec.Body)
		}
		var created shareCreated
		if err := json.Unmarshal(rec.Body.Bytes(), &created); err != nil || created.ID != ShareID(doc) {
			t.Fatalf("%s: %s, want id %s", ex.Name, rec.Body, ShareID(doc))
		}
		get := httptest.NewRecorder()
		h.ServeHTTP(get, httptest.NewRequest("GET", "/api/share/"+created.ID, nil))
		got, _, err := program.DecodeDocument(get.Body.Bytes())
		if get.Code != http.StatusOK || err != nil || got != src {
			t.Fatalf("%s: GET: %d %q (%v)", ex.Name, get.Code, get.Body, err)
		}
		spaced, _ := json.MarshalIndent(map[string]any{"program": src, "version": 1}, "", "  ")
		if again := post(h, string(spaced)); again.Code != http.StatusCreated || !strings.Contains(again.Body.String(), created.ID) {
			t.Errorf("%s: the same program written differently: %d %s, want id %s", ex.Name, again.Code, again.Body, created.ID)
		}
		page := httptest.NewRecorder()
		h.ServeHTTP(page, httptest.NewRequest("GET", "/s/"+created.ID, nil))
		if page.Code != http.StatusOK || !strings.Contains(page.Body.String(), "TapeLab") {
			t.Errorf("%s: /s/%s: %d", ex.Name, created.ID, page.Code)
		}
	}
}

// TestShareProgramErrors posts bad program documents: each gets 400 with a
// JSON error naming the field, or the line and column of the program's
// fault, and nothing is stored.
func TestShareProgramErrors(t *testing.T) {
	h, store := newShareHandler(t)
	for _, tc := range []struct{ body, want string }{
		{`{"version": 1, "program": "a = param([[1, 2, 3], [4, 5, 6]])\nb = a @ a\n"}`, "program: line 2, col 7: matmul: [2 3] @ [2 3]: inner sizes 3 and 2 differ"},
		{`{"version": 1, "program": "x = tanh(y)"}`, "program: line 1, col 10: undefined: y"},
		{`{"version": 1, "program": "x = 1 +"}`, "program: line 1, col 8: expected an expression, found the end of the line"},
		{`{"version": 1, "program": ""}`, "program: line 1, col 1: the program is empty"},
		{`{"program": "x = param(1)"}`, "version: missing (want 1)"},
		{`{"version": 1, "program": ["x = 1"]}`, "program: want the program's text as a JSON string"},
		{`{"version": 1, "program": "x = 1", "layers": []}`, `unknown field "layers"`},
	} {
		rec := post(h, tc.body)
		var e map[string]string
		if err := json.Unmarshal(rec.Body.Bytes(), &e); rec.Code != http.StatusBadRequest || err != nil || !strings.HasPrefix(e["error"], tc.want) {
			t.Errorf("%s: %d %s, want 400 with %q", tc.body, rec.Code, rec.Body, tc.want)
		}
	}
	if n := len(names(t, store.Dir())); n != 0 {
		t.Errorf("rejected programs left %d files in the store", n)
	}
}

// TestShareModelsStillWork checks that a model document is still validated
// as one (its errors name the JSON path) after programs joined.
func TestShareModelsStillWork(t *testing.T) {
	h, _ := newShareHandler(t)
	docs := testDocs(t)
	if rec := post(h, string(docs.Model)); rec.Code != http.StatusCreated {
		t.Errorf("model: %d %s", rec.Code, rec.Body)
	}
	if rec := post(h, string(docs.Invalid)); rec.Code != http.StatusBadRequest || strings.Contains(rec.Body.String(), "program") {
		t.Errorf("invalid model: %d %s", rec.Code, rec.Body)
	}
}
