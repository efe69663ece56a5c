package lesson

import (
	"errors"
	"fmt"

	"tapelab/engine/autograd"
	"tapelab/wasm/app"
)

// Suggest returns the question an author's "Ask for a prediction" starts
// from at stop: the gradient of the stop's selected node, else of the
// first parameter, else of the first node that gets one after the stop's
// position; where every gradient is already final there, the value of a
// node not yet computed (the selected node's first). Its answer is a
// number, of element 0. It returns nil when the stop's state does not
// open, or when everything is computed at its position.
func Suggest(stop Stop) *Question {
	s, err := Open(stop.State)
	if err != nil {
		return nil
	}
	defer s.Close()
	nodes := s.Nodes()
	before := make([]app.State, len(nodes))
	for i := range nodes {
		before[i] = s.State(i)
	}
	for {
		if _, ok := s.Step(); !ok {
			break
		}
	}
	var order []int
	if stop.Select != nil {
		order = append(order, *stop.Select)
	}
	for i, n := range nodes {
		if n.Kind == autograd.Param {
			order = append(order, i)
		}
	}
	for i := range nodes {
		order = append(order, i)
	}
	for _, of := range []string{OfGrad, OfValue} {
		want := completes(of)
		for _, i := range order {
			if i >= 0 && i < len(nodes) && !before[i].Has(want) && s.State(i).Has(want) {
				return &Question{Node: i, Of: of, Element: 0, Answer: AnswerNumber}
			}
		}
	}
	return nil
}

// completes is the state in which the number of kind "of" is complete.
func completes(of string) app.State {
	if of == OfGrad {
		return app.Final
	}
	return app.Known
}

// Problem says in plain words, for the author of a lesson, why stop
// cannot ask q, naming the nodes by their titles and saying what to ask
// instead; it returns "" when Check accepts q at stop.
func Problem(stop Stop, q *Question) string {
	what := "value"
	if q.Of == OfGrad {
		what = "gradient"
	}
	switch {
	case q.Node < 0:
		return "Choose a node by its number on the tape: #0 or more."
	case q.Element < 0:
		return "The element is a position among the node's numbers, counted from 0."
	case q.Of != OfValue && q.Of != OfGrad:
		return "Ask for a node's value or its gradient."
	case q.Answer != AnswerNumber && q.Answer != AnswerSign:
		return "The answer is a number or its sign."
	}
	s, err := Open(stop.State)
	if err != nil {
		return "This stop's state cannot be opened again: " + err.Error()
	}
	defer s.Close()
	nodes := s.Nodes()
	if q.Node >= len(nodes) {
		return fmt.Sprintf("The tape has the nodes #0 to #%d; there is no #%d.", len(nodes)-1, q.Node)
	}
	name := nodes[q.Node].Title()
	if s.State(q.Node).Has(completes(q.Of)) {
		return fmt.Sprintf("%s's %s is already on screen at this stop, so there is nothing to predict: ask about one the next steps compute%s, or add this stop before the step that computes it.", name, what, instead(stop))
	}
	_, err = Answer(s, q)
	var le *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &le) && le.Path == "question.element":
		size := len(s.Value(q.Node).Data)
		return fmt.Sprintf("%s has %d numbers (shape %v): choose an element from 0 to %d.", name, size, nodes[q.Node].Shape, size-1)
	case errors.As(err, &le) && le.Path == "question.node" && le.Err == nil:
		if q.Of == OfGrad {
			return fmt.Sprintf("%s never gets a gradient in this step: the backward pass does not reach it. Ask about a node it reaches%s.", name, instead(stop))
		}
		return fmt.Sprintf("The step never computes %s's value: ask about another node%s.", name, instead(stop))
	}
	return "The step cannot be run up to this number: " + err.Error()
}

// instead names the question Suggest would ask at stop, as ", such as the
// gradient of #2 0.weight", or "" when there is none.
func instead(stop Stop) string {
	q := Suggest(stop)
	if q == nil {
		return ""
	}
	s, err := Open(stop.State)
	if err != nil {
		return ""
	}
	defer s.Close()
	what := "value"
	if q.Of == OfGrad {
		what = "gradient"
	}
	return ", such as the " + what + " of " + s.Nodes()[q.Node].Title()
}
