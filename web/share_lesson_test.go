package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tapelab/wasm/lesson"
)

// TestShareLesson stores every built-in lesson and reads it back: the
// document comes back decoding to the same lesson, the id derives from the
// canonical form, so the same lesson written differently in JSON gets the
// same id, and /s/{id} opens the page.
func TestShareLesson(t *testing.T) {
	h, _ := newShareHandler(t)
	builtins, err := lesson.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range builtins {
		doc, err := lesson.Encode(b.Lesson)
		if err != nil {
			t.Fatal(err)
		}
		rec := post(h, string(doc))
		if rec.Code != http.StatusCreated {
			t.Fatalf("%s: POST: %d %s", b.Name, rec.Code, rec.Body)
		}
		var created shareCreated
		if err := json.Unmarshal(rec.Body.Bytes(), &created); err != nil || created.ID != ShareID(doc) {
			t.Fatalf("%s: %s, want id %s", b.Name, rec.Body, ShareID(doc))
		}
		get := httptest.NewRecorder()
		h.ServeHTTP(get, httptest.NewRequest("GET", "/api/share/"+created.ID, nil))
		if get.Code != http.StatusOK || get.Body.String() != string(doc) {
			t.Fatalf("%s: GET: %d %.80q", b.Name, get.Code, get.Body)
		}
		if l, err := lesson.Decode(get.Body.Bytes()); err != nil || l.Title != b.Lesson.Title || len(l.Stops) != len(b.Lesson.Stops) {
			t.Fatalf("%s: the stored lesson does not decode back: %v", b.Name, err)
		}
		var loose any
		if err := json.Unmarshal(doc, &loose); err != nil {
			t.Fatal(err)
		}
		spaced, _ := json.MarshalIndent(loose, "", "  ") // other member order and spacing
		if again := post(h, string(spaced)); again.Code != http.StatusCreated || !strings.Contains(again.Body.String(), created.ID) {
			t.Errorf("%s: the same lesson written differently: %d %s, want id %s", b.Name, again.Code, again.Body, created.ID)
		}
		page := httptest.NewRecorder()
		h.ServeHTTP(page, httptest.NewRequest("GET", "/s/"+created.ID, nil))
		if page.Code != http.StatusOK || !strings.Contains(page.Body.String(), "TapeLab") {
			t.Errorf("%s: /s/%s: %d", b.Name, created.ID, page.Code)
		}
	}
}

// TestShareLessonErrors posts bad lessons: each gets 400 with a JSON error
// naming the stop and field at fault, and nothing is stored.
func TestShareLessonErrors(t *testing.T) {
	h, store := newShareHandler(t)
	const prog = `{"program":"a = param(2.0)\nb = a * a\n"}`
	stop := `{"state":` + prog + `}`
	lesson := func(stops ...string) string {
		return `{"version":1,"title":"T","stops":[` + strings.Join(stops, ",") + `]}`
	}
	for _, tc := range []struct{ body, want string }{
		{lesson(stop, stop, `{"state":`+prog+`,"question":{"node":-1,"of":"grad","answer":"number"}}`), "lesson stops[2].question.node: must be ≥ 0, got -1"},
		{lesson(stop, `{"state":`+prog+`,"question":{"node":1,"of":"curvature","answer":"number"}}`), `lesson stops[1].question.of: "curvature" is not what a question asks for`},
		{lesson(`{"state":{"program":"y = x"}}`), "lesson stops[0].state.program: line 1, col 5: undefined: x"},
		{lesson(stop, `{"state":{"model":{"version":1,"input":[2],"layers":[{"type":"linear","out":0}],"loss":"mse"}}}`), "lesson stops[1].state.model: layers[0].out"},
		{lesson(stop, `{"state":`+prog+`,"caption":7}`), "lesson stops[1].caption: want string, got a JSON number 7"},
		{lesson(stop, `{"caption":"no state"}`), "lesson stops[1].state: missing"},
		{lesson(), "lesson stops: no stops"},
		{`{"version":1,"stops":[` + stop + `]}`, "lesson title: missing"},
		{`{"version":2,"title":"T","stops":[` + stop + `]}`, "lesson version: want 1, got a JSON number 2"},
	} {
		rec := post(h, tc.body)
		var e map[string]string
		if err := json.Unmarshal(rec.Body.Bytes(), &e); rec.Code != http.StatusBadRequest || err != nil || !strings.HasPrefix(e["error"], tc.want) {
			t.Errorf("%.60s…: %d %s, want 400 with %q", tc.body, rec.Code, rec.Body, tc.want)
		}
	}
	if n := len(names(t, store.Dir())); n != 0 {
		t.Errorf("rejected lessons left %d files in the store", n)
	}
}

// TestShareOtherKindsAfterLessons checks that model and program documents
// are still validated as themselves now that lessons joined.
func TestShareOtherKindsAfterLessons(t *testing.T) {
	h, _ := newShareHandler(t)
	docs := testDocs(t)
	if rec := post(h, string(docs.Model)); rec.Code != http.StatusCreated {
		t.Errorf("model: %d %s", rec.Code, rec.Body)
	}
	if rec := post(h, string(docs.Invalid)); rec.Code != http.StatusBadRequest || strings.Contains(rec.Body.String(), "lesson") {
		t.Errorf("invalid model: %d %s", rec.Code, rec.Body)
	}
	if rec := post(h, `{"version": 1, "program": "x = tanh(y)"}`); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "program: line 1, col 10: undefined: y") {
		t.Errorf("invalid program: %d %s", rec.Code, rec.Body)
	}
}
