// Package debounce runs a function after a burst of changes, without
// time's formatting: the page's link sync, its lesson watch and its
// stepper's pace use it.
package debounce

import "time"

// Debouncer runs a function after a burst of changes: once the changes
// stop for a quiet period, and at least every maxWait while they go on
// (playing or training), so that a long burst is not left unrun. Between
// bursts nothing runs: no timer is set and its goroutine sleeps on a
// channel.
type Debouncer struct {
	changes chan struct{}
}

// New starts the goroutine that calls fn; it lives as long as the
// page.
func New(quiet, maxWait time.Duration, fn func()) *Debouncer {
	d := &Debouncer{changes: make(chan struct{}, 1)}
	go d.run(quiet, maxWait, fn)
	return d
}

// Changed says that something changed. It never blocks, so event handlers
// may call it.
func (d *Debouncer) Changed() {
	select {
	case d.changes <- struct{}{}:
	default: // a change is already pending
	}
}

func (d *Debouncer) run(quiet, maxWait time.Duration, fn func()) {
	for range d.changes {
		start := time.Now()
		// Armed for maxWait from the start, so that a burst whose next
		// change comes (or is taken) only after maxWait still runs.
		quietEnd := Elapsed(min(quiet, maxWait))
		for waiting := true; waiting; {
			select {
			case <-d.changes:
				if left := maxWait - time.Since(start); left > 0 {
					quietEnd = Elapsed(min(quiet, left)) // the one before is dropped
				}
			case <-quietEnd:
				waiting = false
			}
		}
		fn()
	}
}

// Elapsed returns a channel that receives once d has passed. Unlike
// time.After it links no channel of time.Time, which would bring time's
// formatting into the page (bench/README.md has the figures); the goroutine
// that sleeps ends when d has passed, whether or not anyone still waits.
func Elapsed(d time.Duration) <-chan struct{} {
	c := make(chan struct{}, 1)
	go func() {
		time.Sleep(d)
		c <- struct{}{}
	}()
	return c
}
