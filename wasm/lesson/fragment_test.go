package lesson

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tapelab/wasm/link"
)

// TestFragmentRoundTrip: every built-in and kept lesson goes through its
// fragment and comes back the same, in URL-fragment-safe characters.
func TestFragmentRoundTrip(t *testing.T) {
	var lessons []*Lesson
	for _, f := range fixtures {
		lessons = append(lessons, f.want(t))
	}
	for _, b := range builtins {
		lessons = append(lessons, b.lesson(t))
	}
	for _, l := range lessons {
		f, err := Fragment(l)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(f, Prefix) || strings.ContainsAny(f, "+/=#?& ") || !IsFragment("#"+f) {
			t.Errorf("%q: fragment %.40q… is not a URL-safe lesson fragment", l.Title, f)
		}
		got, err := DecodeFragment("#" + f)
		if err != nil {
			t.Fatalf("%q: %v", l.Title, err)
		}
		equalLessons(t, got, l)
	}
}

// TestBudget: the built-in lessons fit in a link; a lesson longer than
// link.Budget is reported as not fitting (the page then uses the share
// service), and its long link still decodes.
func TestBudget(t *testing.T) {
	const page = "https://tapelab.example/"
	for _, b := range builtins {
		url, fits, err := Link(page, b.lesson(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d characters", b.name, len(url))
		if !fits || len(url) > link.Budget {
			t.Errorf("%s: its link is %d characters, over the budget of %d", b.name, len(url), link.Budget)
		}
	}
	big := &Lesson{Title: "Many stops"}
	x := uint64(1)
	for range 10 {
		s := linearModel()
		s.Batch = &link.Points{X: make([][]float64, 8), Y: make([]float64, 8)}
		for k := range s.Batch.X {
			s.Batch.X[k] = make([]float64, 2)
			for j := range s.Batch.X[k] {
				x = x*6364136223846793005 + 1442695040888963407 // numbers deflate cannot share
				s.Batch.X[k][j] = float64(x>>11) / (1 << 53)
			}
		}
		big.Stops = append(big.Stops, Stop{State: s})
	}
	url, fits, err := Link(page, big)
	if err != nil {
		t.Fatal(err)
	}
	if fits || len(url) <= link.Budget {
		t.Fatalf("a %d-character link is reported as fitting the %d budget", len(url), link.Budget)
	}
	_, frag, _ := strings.Cut(url, "#")
	got, err := DecodeFragment(frag)
	if err != nil {
		t.Fatal(err)
	}
	equalLessons(t, got, big)
}

// TestStateLinksUnchanged: every kept v1 state link still decodes as
// before and is not taken for a lesson; a lesson fragment is refused by
// the state link decoder (so an older page says it is from a newer
// version) and a state link by the lesson decoder.
func TestStateLinksUnchanged(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "link", "testdata", "*.link"))
	programs, _ := filepath.Glob(filepath.Join("..", "link", "testdata", "programs", "*.link"))
	files = append(files, programs...)
	if len(files) < 9 {
		t.Fatalf("found %d kept v1 links, want the 9 of wasm/link/testdata", len(files))
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		frag := "#" + strings.TrimSpace(string(data))
		st, err := link.Decode(frag)
		if err != nil {
			t.Errorf("%s no longer decodes: %v", name, err)
			continue
		}
		env, _ := link.JSON(st)
		want, err := os.ReadFile(strings.TrimSuffix(name, ".link") + ".json")
		if err != nil || string(env) != strings.TrimSpace(string(want)) {
			t.Errorf("%s decodes to a different state (%v)", name, err)
		}
		if IsFragment(frag) {
			t.Errorf("%s is taken for a lesson", name)
		}
		if _, err := DecodeFragment(frag); err == nil || !strings.Contains(err.Error(), "lesson prefix: a lesson link starts with") {
			t.Errorf("DecodeFragment of a state link: %v", err)
		}
	}
	f, err := Fragment(builtins[0].lesson(t))
	if err != nil {
		t.Fatal(err)
	}
	var le *link.Error
	if _, err := link.Decode("#" + f); !errors.As(err, &le) || le.Part != "prefix" || !strings.Contains(err.Error(), "newer version") {
		t.Errorf("link.Decode of a lesson fragment: %v", err)
	}
}

// TestFragmentErrors: broken fragments are *Errors naming the packing.
func TestFragmentErrors(t *testing.T) {
	good, err := Fragment(builtins[1].lesson(t))
	if err != nil {
		t.Fatal(err)
	}
	body := link.Deflate([]byte(`{"version":1,"title":"T","stops":[{"state":{"program":"y = x"}}]}`))
	for _, tt := range []struct{ frag, path, msg string }{
		{"#l1.*", "base64", "character 1 of the link's body is not base64url"},
		{"#" + good[:len(Prefix)+(len(good)-len(Prefix))/8*4], "deflate", "cut short"}, // whole base64 quads
		{"#l1." + body, "stops[0].state.program", "undefined: x"},
		{"#v2.x", "prefix", `starts with "l1."`},
	} {
		_, err := DecodeFragment(tt.frag)
		var le *Error
		if !errors.As(err, &le) || le.Path != tt.path || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("DecodeFragment(%.30q) = %v, want path %q saying %q", tt.frag, err, tt.path, tt.msg)
		}
	}
}
