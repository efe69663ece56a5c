package app

import "strconv"

// Worded reports whether class names are words (a dataset's names, as
// train.ClassNames gives them), not the class numbers.
func Worded(names []string) bool { return len(names) > 0 && names[0] != "0" }

// ClassName is class k as the page shows it: its name in names (the
// dataset's, train.ClassNames), or its number.
func ClassName(names []string, k int) string {
	if k >= 0 && k < len(names) {
		return names[k]
	}
	return strconv.Itoa(k)
}
