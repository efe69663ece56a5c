package op

import (
	"strconv"
	"strings"

	"tapelab/engine/tensor"
)

// Error reports a failed op application: which node, which op, the operand
// shapes and what is wrong.
type Error struct {
	// Node is the tape node or graph value id, or -1 when not yet known.
	Node   int
	Op     string         // the op's catalogue name, or the stage at fault ("inputs", "seeds")
	Shapes []tensor.Shape // the operand shapes involved, in operand order
	Msg    string         // what is wrong, without the node and op
}

// Error formats the failure as "node 7 matmul([2 3], [4 5]): message".
func (e *Error) Error() string {
	var b strings.Builder
	if e.Node >= 0 {
		b.WriteString("node ")
		b.WriteString(strconv.Itoa(e.Node))
		b.WriteByte(' ')
	}
	b.WriteString(e.Op)
	b.WriteByte('(')
	for i, s := range e.Shapes {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s.String())
	}
	b.WriteString("): ")
	b.WriteString(e.Msg)
	return b.String()
}

// AtNode returns err with the node id filled in when err is an *Error that
// does not name one yet; other errors are returned unchanged.
func AtNode(err error, node int) error {
	if e, ok := err.(*Error); ok && e.Node < 0 {
		c := *e
		c.Node = node
		return &c
	}
	return err
}

func itoa(n int) string { return strconv.Itoa(n) }
