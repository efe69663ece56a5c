//go:build js && wasm

package dom

import (
	"fmt"
	"runtime"
	"syscall"
)

// stack returns the calling goroutine's stack trace, as runtime/debug.Stack
// does: runtime/debug, for this one call, would add 1.6 KB (brotli) to the
// page.
func stack() []byte {
	buf := make([]byte, 1024)
	for {
		if n := runtime.Stack(buf, false); n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}

// Stderr is the Go program's standard error (file descriptor 2), which
// the page's loader keeps to show a panic: written through syscall, the
// program does without package os and its start-up.
type Stderr struct{}

// Write writes p to standard error.
func (Stderr) Write(p []byte) (int, error) { return syscall.Write(2, p) }

// Recovered calls fn; if fn panics, it reports "name: <panic value>" and
// logs the stack to standard error. Every entry point from JavaScript (event
// listeners, callbacks, goroutines they start) runs its work through it, so
// that a panic is shown in the page instead of stopping the Go program.
func Recovered(name string, report func(string), fn func()) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(Stderr{}, "panic in %s: %v\n%s", name, r, stack())
			report(fmt.Sprintf("%s: %v", name, r))
		}
	}()
	fn()
}
