package app

// FitFloor is the smallest scale a tape is fitted at in a region of
// w × h CSS pixels, given the sizes of its folds into 1, 2, … rows
// (layout.Layout.RowSizes): ReadableScale, or presenting PresenterScale
// where some fold fits the region at it. Where none does (a presenter's
// link opened on a smaller screen than the projector it was made on), it
// is the scale the best fold fits at, down to ReadableScale: the whole
// tape stays in view, its titles between ReadableTitlePx and
// PresenterTitlePx, instead of a third of it under the stepper.
func FitFloor(presenting bool, folds [][2]float64, w, h float64) float64 {
	if !presenting {
		return ReadableScale
	}
	best := 0.0
	for _, s := range folds {
		if s[0] > 0 && s[1] > 0 {
			best = max(best, min(w/s[0], h/s[1]))
		}
	}
	return min(PresenterScale, max(ReadableScale, best))
}

// FitsWhole reports whether some fold of a tape (sizes as FitFloor takes
// them) fits a region of w × h whole at scale floor or larger.
func FitsWhole(folds [][2]float64, w, h, floor float64) bool {
	for _, s := range folds {
		if s[0] > 0 && s[1] > 0 && min(w/s[0], h/s[1]) >= floor-1e-9 {
			return true
		}
	}
	return false
}
