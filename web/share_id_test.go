package web

import (
	"strings"
	"testing"
)

func TestShareID(t *testing.T) {
	a, b := ShareID([]byte(`{"a":1}`)), ShareID([]byte(`{"a":2}`))
	if a == b {
		t.Fatalf("different documents share the id %s", a)
	}
	if again := ShareID([]byte(`{"a":1}`)); again != a {
		t.Fatalf("ShareID is not a function of the bytes: %s then %s", a, again)
	}
	// sha256("") starts e3b0c44298fc1c149afb; its first 10 bytes in
	// lowercase base32.
	if got, want := ShareID(nil), "4oymiquy7qobjgx3"; got != want {
		t.Errorf("ShareID(nil) = %s, want %s", got, want)
	}
	for _, id := range []string{a, b, ShareID(nil)} {
		if !ValidShareID(id) {
			t.Errorf("ShareID gave %q, which ValidShareID rejects", id)
		}
	}
}

func TestValidShareID(t *testing.T) {
	tests := []struct {
		id   string
		want bool
	}{
		{"abcdefghijklmnop", true},
		{"qrstuvwxyz234567", true},
		{"", false},
		{"abcdefghijklmno", false},   // 15
		{"abcdefghijklmnopq", false}, // 17
		{"Abcdefghijklmnop", false},  // upper case
		{"abcdefghijklmno0", false},  // 0 and 1 are not in the alphabet
		{"abcdefghijklmno1", false},
		{"abcdefghijklmno8", false},
		{"abcdefghijklmn-_", false},
		{"abcdefghijklm/..", false},
		{"abcdefghijklmnó", false}, // 15 runes, 16 bytes
		{strings.Repeat("a", 15) + "\x00", false},
	}
	for _, tt := range tests {
		if got := ValidShareID(tt.id); got != tt.want {
			t.Errorf("ValidShareID(%q) = %v, want %v", tt.id, got, tt.want)
		}
	}
}
