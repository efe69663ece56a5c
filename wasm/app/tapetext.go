package app

import (
	"fmt"
	"strings"

	"tapelab/engine/tensor"
)

// TapeText lists the stepper's tape one node per line: its title, parents,
// shape and role, then its value and gradient at full precision where the
// stepper has them. It is the "tape as text" download.
func TapeText(s *Stepper) string {
	var b strings.Builder
	pos := s.Position()
	fmt.Fprintf(&b, "# TapeLab tape: %d nodes, position %s node %d\n", len(s.Nodes()), pos.Phase, pos.Node)
	for _, n := range s.Nodes() {
		parents := make([]string, len(n.Parents))
		for k, p := range n.Parents {
			parents[k] = fmt.Sprintf("#%d", p)
		}
		fmt.Fprintf(&b, "%s(%s) shape %v", n.Title(), strings.Join(parents, ", "), n.Shape)
		if t := n.Note(); t != "" {
			fmt.Fprintf(&b, " [%s]", t)
		}
		if v := s.Value(n.ID); v != nil {
			fmt.Fprintf(&b, "\n    value %s", fullText(v))
		}
		if g := s.Grad(n.ID); g != nil {
			fmt.Fprintf(&b, "\n    grad  %s", fullText(g))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// fullText writes a tensor's numbers at full precision.
func fullText(t *tensor.Tensor) string {
	parts := make([]string, len(t.Data))
	for i, v := range t.Data {
		parts[i] = Full(v)
	}
	return "[" + strings.Join(parts, " ") + "]"
}
