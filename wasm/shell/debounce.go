//go:build js && wasm

package shell

import "time"

// debouncer runs a function after a burst of changes: once the changes
// stop for a quiet period, and at least every maxWait while they go on
// (playing or training), so that a long burst is not left unrun. Between
// bursts nothing runs: no timer is set and its goroutine sleeps on a
// channel.
type debouncer struct {
	changes chan struct{}
}

// newDebouncer starts the goroutine that calls fn; it lives as long as the
// page.
func newDebouncer(quiet, maxWait time.Duration, fn func()) *debouncer {
	d := &debouncer{changes: make(chan struct{}, 1)}
	go d.run(quiet, maxWait, fn)
	return d
}

// changed says that something changed. It never blocks, so event handlers
// may call it.
func (d *debouncer) changed() {
	select {
	case d.changes <- struct{}{}:
	default: // a change is already pending
	}
}

func (d *debouncer) run(quiet, maxWait time.Duration, fn func()) {
	for range d.changes {
		start := time.Now()
		quietEnd := elapsed(quiet)
		for waiting := true; waiting; {
			select {
			case <-d.changes:
				if left := maxWait - time.Since(start); left > 0 {
					quietEnd = elapsed(min(quiet, left)) // the one before is dropped
				}
			case <-quietEnd:
				waiting = false
			}
		}
		fn()
	}
}

// elapsed returns a channel that receives once d has passed. Unlike
// time.After it links no channel of time.Time, which would bring time's
// formatting into the page (bench/README.md has the figures); the goroutine
// that sleeps ends when d has passed, whether or not anyone still waits.
func elapsed(d time.Duration) <-chan struct{} {
	c := make(chan struct{}, 1)
	go func() {
		time.Sleep(d)
		c <- struct{}{}
	}()
	return c
}
