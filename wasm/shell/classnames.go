//go:build js && wasm

package shell

import "strconv"

// worded reports whether class names are words, not the class numbers.
func worded(names []string) bool { return len(names) > 0 && names[0] != "0" }

// className is class k as the page shows it: its name in names (the
// dataset's, train.ClassNames), or its number.
func className(names []string, k int) string {
	if k >= 0 && k < len(names) {
		return names[k]
	}
	return strconv.Itoa(k)
}
