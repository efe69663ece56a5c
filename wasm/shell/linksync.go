//go:build js && wasm

package shell

import (
	"tapelab/wasm/debounce"

	"strconv"

	"tapelab/wasm/dom"

	"time"

	"tapelab/wasm/link"
)

// The URL fragment follows the page's state: every change (a step, an
// edit, a mode, the view, a classroom flag, a training render) tells
// linkSync, which re-encodes the state once the changes have stopped for
// linkQuiet, and at least every linkMaxWait while they go on (playing,
// training). While nothing changes, nothing is encoded.
const (
	linkQuiet   = 150 * time.Millisecond
	linkMaxWait = time.Second
)

// linkDebouncer is the link's debouncer. It announces on <html
// data-link-changes> how many changes it was told of, and syncOnce writes
// to data-link-synced the count it took in: the two are equal once the
// link has caught up with the state, which is what the end-to-end tests
// wait for instead of a time.
type linkDebouncer struct {
	*debounce.Debouncer
	root    dom.Elem
	changes int // the changes told so far
}

func newLinkDebouncer(root dom.Elem, fn func()) *linkDebouncer {
	return &linkDebouncer{Debouncer: debounce.New(linkQuiet, linkMaxWait, fn), root: root}
}

// changed says that the state changed: it counts the change and starts
// the debounce.
func (l *linkDebouncer) changed() {
	l.count()
	l.Debouncer.Changed()
}

// count counts a change of the state at once, in the handler that made
// it; the state's background relay starts the debounce on its own
// goroutine (newShell).
func (l *linkDebouncer) count() {
	l.changes++
	l.root.SetAttribute("data-link-changes", strconv.Itoa(l.changes))
}

// syncOnce encodes the state and, when the link changed, replaces the
// history entry (no new entry per change, so Back leaves the page as
// expected) and the share box's link. <html data-link-encodes> counts the
// encodings; data-link-synced says which change the link now follows.
func (sh *Shell) syncOnce() {
	defer sh.u.Root().SetAttribute("data-link-synced", strconv.Itoa(sh.linkSync.changes))
	if sh.pv.src().Err() != nil {
		return // a broken model has no link; keep the last good one
	}
	sh.linkEncodes++
	sh.u.Root().SetAttribute("data-link-encodes", strconv.Itoa(sh.linkEncodes))
	l, err := link.Encode(sh.st.Link())
	if err != nil {
		sh.notes.SetTextContent("No link for this state: " + err.Error())
		return
	}
	if l == sh.lastLink {
		return
	}
	sh.lastLink = l
	full := sh.publish(l)
	sh.shareURL.SetValue(full)
	// Links made for an earlier state would open that state: the person
	// makes them again for this one.
	sh.made.Show(false)
	sh.shortBtn.RemoveAttribute("data-short")
	if len(full) > link.Budget {
		sh.notes.SetTextContent("This link is long (" + strconv.Itoa(len(full)) + " characters, with the weights): a short link is easier to paste.")
	} else {
		sh.notes.SetTextContent(strconv.Itoa(len(full)) + " characters")
	}
	sh.u.Root().SetAttribute("data-link-length", strconv.Itoa(len(full)))
}
