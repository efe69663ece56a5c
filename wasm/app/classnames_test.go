package app

import "testing"

func TestClassName(t *testing.T) {
	names := []string{"circle", "square"}
	tests := []struct {
		names []string
		k     int
		want  string
	}{
		{names, 1, "square"},
		{names, 2, "2"},
		{names, -1, "-1"},
		{nil, 3, "3"},
	}
	for _, tt := range tests {
		if got := ClassName(tt.names, tt.k); got != tt.want {
			t.Errorf("ClassName(%q, %d) = %q, want %q", tt.names, tt.k, got, tt.want)
		}
	}
	if !Worded(names) || Worded([]string{"0", "1"}) || Worded(nil) {
		t.Error("Worded tells words from numbers wrongly")
	}
}
