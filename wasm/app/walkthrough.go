package app

import (
	"fmt"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
)

// Walkthrough says in words what the stepper's last step did, paragraph
// by paragraph: going forward, what the node computed from what; going
// backward, how the chain rule turns its final gradient into its parents'
// gradients, with the numbers (+= where a parent already had some). The
// words come from the op catalogue's Formula and Rule, through Explain.
func Walkthrough(s *Stepper) []string {
	pos := s.Position()
	c := s.Counts()
	nodes := s.Nodes()
	i := s.Focus()
	if i < 0 {
		return []string{
			fmt.Sprintf("Nothing has been computed yet. The tape holds %d nodes: the inputs, the parameters and every operation of one training step, in the order they ran.", len(nodes)),
			"Press → (or Step) to evaluate the first node. Going forward, each step computes one node's value from its parents. Then, going backward, each step runs one node's part of the chain rule.",
		}
	}
	n := nodes[i]
	name := n.Title()
	if !s.State(i).Has(Ran) || pos.Phase == autograd.PhaseForward {
		return walkForward(s, n, c)
	}
	card := s.Explain(i)
	out := []string{fmt.Sprintf("Backward step %d of %d: %s.", c.Backward, c.BackwardTotal, name)}
	switch {
	case i == s.Output():
		out = append(out, "This is the loss, so backpropagation starts here with dY = 1: a change of the loss changes the loss one for one.")
	case s.State(i).Has(Extra):
		v, _ := s.Visit(i)
		out = append(out, fmt.Sprintf("The loss does not depend on %s, yet the single-output pass runs its VJP (%s): the dense pass runs it, and here skipping it could change a result (a zero cotangent times an infinite or NaN saved value is NaN, not zero), so the single-output pass visits it to stay bit-identical to the dense pass.", name, v.Reason))
	case s.State(i).Has(Side):
		out = append(out, fmt.Sprintf("The loss does not depend on %s: it sits beside the loss on the tape. The dense all-seeds pass seeds every node (1 at the loss, 0 everywhere else), so it still runs this VJP, on dY = 0, and sends zeros back. The single-output pass skips it, which changes no result.", name))
	default:
		out = append(out, fmt.Sprintf("Every node that used %s's output has already sent its share back, so its gradient is now final: dY = %s. It says how much the loss would change per unit change of this node's output.", name, aloud(card.Upstream, n.Shape)))
	}
	if n.Op == nil {
		return append(out, "This is a leaf (an input or a parameter): nothing came before it, so its gradient is only collected here. A parameter's gradient is what the optimizer uses to update it.")
	}
	out = append(out, fmt.Sprintf("The forward rule of %s is %s; the chain rule for it is %s.", n.Label, card.Formula, card.Rule))
	for _, l := range card.Contribs {
		parent := nodes[l.Parent].Title()
		ps := nodes[l.Parent].Shape
		p := fmt.Sprintf("For %s (the operand %s): %s, which with the numbers is %s = %s.", parent, l.Operand, l.Clause, aloud(l.Numbers, nil), aloud(l.Value, ps))
		if l.Numbers == "" {
			p = fmt.Sprintf("For %s (the operand %s): %s, which here comes to %s.", parent, l.Operand, l.Clause, aloud(l.Value, ps))
		}
		if l.Accumulates {
			p += fmt.Sprintf(" %s already had the gradient %s from another node that uses it, so this contribution is added (+=): it becomes %s. A value used twice collects a gradient from each use.", parent, aloud(l.Before, ps), aloud(l.After, ps))
		} else {
			p += fmt.Sprintf(" This is the first gradient %s receives, so its gradient is now %s.", parent, aloud(l.After, ps))
		}
		out = append(out, p)
	}
	if len(card.Contribs) == 0 {
		out = append(out, "None of its parents needs a gradient, so nothing is sent back.")
	}
	return out
}

func walkForward(s *Stepper, n NodeInfo, c Counts) []string {
	out := []string{fmt.Sprintf("Forward step %d of %d: %s.", c.Forward, c.ForwardTotal, n.Title())}
	v := aloud(Inline(s.Value(n.ID)), n.Shape)
	switch {
	case n.Op == nil && n.Role != "":
		out = append(out, fmt.Sprintf("This is the %s of the training step, given from outside: %s.", n.Role, v))
	case n.Op == nil:
		out = append(out, fmt.Sprintf("This is a parameter the model learns; its current value is %s.", v))
	default:
		card := s.Explain(n.ID)
		args := ""
		for k, t := range card.Terms {
			if t.Name == "Y" || t.Name == "dY" {
				continue
			}
			if k > 0 {
				args += ", "
			}
			args += fmt.Sprintf("%s = %s (node #%d)", t.Name, aloud(t.Value, nil), t.Node)
		}
		out = append(out, fmt.Sprintf("It computes %s from %s.", card.Formula, args), fmt.Sprintf("The result is Y = %s.", v))
		if n.Role != "" {
			out = append(out, fmt.Sprintf("This node is the step's %s.", n.Role))
		}
	}
	if c.Forward == c.ForwardTotal {
		out = append(out, "The forward pass is complete. Press → again to start the backward pass at the loss.")
	}
	return out
}

// aloud keeps a formatted tensor short enough to read aloud: long ones
// become their shape (the inspector shows every number).
func aloud(s string, shape tensor.Shape) string {
	if len([]rune(s)) <= 48 {
		return s
	}
	if shape != nil {
		return fmt.Sprintf("a %v tensor (its numbers are in the inspector)", shape)
	}
	return "numbers too many to read aloud (see the inspector)"
}
