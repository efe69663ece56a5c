package app

import (
	"errors"
	"strings"
	"testing"
)

func TestSharedPage(t *testing.T) {
	tests := []struct {
		path, id string
		embed    bool
		ok       bool
	}{
		{"/s/abc_D-9", "abc_D-9", false, true},
		{"/tapelab/embed/xyz", "xyz", true, true},
		{"/", "", false, false},
		{"/s/", "", false, false},
		{"/s/a.b", "", false, false},
		{"/s/" + string(make([]byte, 65)), "", false, false},
	}
	for _, tt := range tests {
		id, embed, ok := SharedPage(tt.path)
		if id != tt.id || embed != tt.embed || ok != tt.ok {
			t.Errorf("SharedPage(%q) = %q, %v, %v; want %q, %v, %v", tt.path, id, embed, ok, tt.id, tt.embed, tt.ok)
		}
	}
}

func TestCreatedShare(t *testing.T) {
	tests := []struct {
		status int
		body   string
		err    error
		url    string // "" means an error
		msg    string
	}{
		{201, `{"id":"x","url":"/s/x"}`, nil, "/s/x", ""},
		{404, `not found`, nil, "", "the server answered 404"},
		{0, "", errors.New("TypeError: failed to fetch"), "", "TypeError: failed to fetch"},
		{201, `{"id":"x"}`, nil, "", "no share service answered"},
		{201, `<html>`, nil, "", ""},
	}
	for _, tt := range tests {
		url, err := CreatedShare(tt.status, tt.body, tt.err)
		if url != tt.url || (err == nil) != (tt.url != "") || tt.msg != "" && err.Error() != tt.msg {
			t.Errorf("CreatedShare(%d, %q, %v) = %q, %v; want %q, %q", tt.status, tt.body, tt.err, url, err, tt.url, tt.msg)
		}
	}
}

// TestFetchedShare checks the words for each answer to GET /api/share/{id}:
// an unknown id and a malformed one both say that no shared model has it,
// the malformed one also saying what a share id looks like.
func TestFetchedShare(t *testing.T) {
	tests := []struct {
		id     string
		status int
		want   []string // "" means no error
	}{
		{"aaaaaaaaaaaaaaaa", 200, nil},
		{"aaaaaaaaaaaaaaaa", 404, []string{"no shared model has the id aaaaaaaaaaaaaaaa"}},
		{"doesnotexist", 400, []string{"no shared model has the id doesnotexist", "not a share id", "16 characters"}},
		{"aaaaaaaaaaaaaaaa", 500, []string{"the share service could not read the share aaaaaaaaaaaaaaaa (it answered 500)"}},
	}
	for _, tt := range tests {
		err := FetchedShare(tt.id, tt.status)
		if (err == nil) != (tt.want == nil) {
			t.Errorf("FetchedShare(%q, %d) = %v, want an error: %v", tt.id, tt.status, err, tt.want != nil)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("FetchedShare(%q, %d) = %q, want it to say %q", tt.id, tt.status, err, w)
			}
		}
		if err != nil && strings.Contains(err.Error(), "answered 400") {
			t.Errorf("FetchedShare(%q, %d) = %q: a status code is no reason a person can act on", tt.id, tt.status, err)
		}
	}
}

// TestLinksFor checks the short link, the embed link and the iframe
// snippet made from the share service's answer, and that an answer which
// is not /s/<id> is refused rather than turned into a broken link.
func TestLinksFor(t *testing.T) {
	got, err := LinksFor("https://h.example", "/s/abcdefghijklmnop", "v1.xyz")
	want := ShareLinks{
		Short:  "https://h.example/s/abcdefghijklmnop#v1.xyz",
		Embed:  "https://h.example/embed/abcdefghijklmnop#v1.xyz",
		IFrame: `<iframe src="https://h.example/embed/abcdefghijklmnop#v1.xyz" width="960" height="540" title="TapeLab" loading="lazy"></iframe>`,
	}
	if err != nil || got != want {
		t.Errorf("LinksFor = %+v, %v; want %+v", got, err, want)
	}
	if got, _ := LinksFor("http://127.0.0.1:8080", "/s/abcdefghijklmnop", ""); got.Short != "http://127.0.0.1:8080/s/abcdefghijklmnop" || got.Embed != "http://127.0.0.1:8080/embed/abcdefghijklmnop" {
		t.Errorf("without a fragment: %+v", got)
	}
	for _, bad := range []string{"", "/s/", "/x/abc", `/s/a"><script>`} {
		if _, err := LinksFor("https://h.example", bad, ""); err == nil {
			t.Errorf("LinksFor(%q) made links", bad)
		}
	}
}
