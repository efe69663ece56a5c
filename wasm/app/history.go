package app

// History keeps a document's past and future for undo and redo. Documents
// are values: every edit stores a new one, and old ones are never changed.
type History[T any] struct {
	past   []T
	cur    T
	future []T
	limit  int
}

// NewHistory starts a history at doc, remembering up to limit edits
// (100 when limit ≤ 0).
func NewHistory[T any](doc T, limit int) *History[T] {
	if limit <= 0 {
		limit = 100
	}
	return &History[T]{cur: doc, limit: limit}
}

// Current returns the document as it stands.
func (h *History[T]) Current() T { return h.cur }

// Push records doc as the result of an edit and forgets the redo list.
func (h *History[T]) Push(doc T) {
	h.past = append(h.past, h.cur)
	if len(h.past) > h.limit {
		h.past = h.past[len(h.past)-h.limit:]
	}
	h.cur, h.future = doc, nil
}

// Undo goes back one edit; it reports false when there is none.
func (h *History[T]) Undo() bool { return h.move(&h.past, &h.future) }

// Redo goes forward one undone edit; it reports false when there is none.
func (h *History[T]) Redo() bool { return h.move(&h.future, &h.past) }

// move makes the last document of from the current one and keeps the
// current one on to; it reports false when from is empty.
func (h *History[T]) move(from, to *[]T) bool {
	if len(*from) == 0 {
		return false
	}
	*to = append(*to, h.cur)
	h.cur = (*from)[len(*from)-1]
	*from = (*from)[:len(*from)-1]
	return true
}

// CanUndo and CanRedo report whether Undo and Redo would do something.
func (h *History[T]) CanUndo() bool { return len(h.past) > 0 }

// CanRedo reports whether Redo would do something.
func (h *History[T]) CanRedo() bool { return len(h.future) > 0 }
