package program

import "fmt"

// Pos is a place in the program text: line and column, both counted from 1
// (columns in characters, not bytes).
type Pos struct {
	Line, Col int
}

// String formats p as "line 3, col 9".
func (p Pos) String() string { return fmt.Sprintf("line %d, col %d", p.Line, p.Col) }

// Error is a fault in a program: where it is and what is wrong, naming the
// thing at fault ("undefined: w", "matmul: [2 3] @ [2 3]: inner sizes 3
// and 2 differ"). Every error Parse, Eager, Compile and Forward return is
// an *Error.
type Error struct {
	Pos
	Msg string
}

// Error formats e as "line 3, col 9: message".
func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

func errorf(p Pos, format string, args ...any) *Error {
	return &Error{Pos: p, Msg: fmt.Sprintf(format, args...)}
}
