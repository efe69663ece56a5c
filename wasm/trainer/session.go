// Package trainer is the training view's state, with no DOM: a model
// trained live on a generated dataset or on the user's own points, its
// loss and accuracy history on the training and test sets, and what the
// view draws (the decision boundary or fitted curve over the data's
// extent). It drives engine/train's Trainer; the view only calls Run and
// draws.
package trainer

import (
	"fmt"

	"errors"
	"math"
	"math/rand/v2"
	"tapelab/engine/budget"

	"tapelab/engine/nn"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
)

// MaxHistory bounds the stored metric points; older ones are thinned so
// that the loss chart keeps its whole run at a steady cost.
const MaxHistory = 400

// evalValues bounds the input values evaluated per training step, on
// average, when metrics are recorded (see New): every step for the point
// sets (even 2,000 user points), every 16 steps for digits.
const evalValues = 8192

// Record is the model's loss and accuracy on both sets after a step.
type Record struct {
	Step        int
	Train, Test train.Metrics
}

// Session trains one model. It is not safe for concurrent use: the view
// calls it from one goroutine.
type Session struct {
	spec     *spec.Model
	model    *nn.Model
	tr       *train.Trainer
	trainSet *train.Dataset
	testSet  *train.Dataset
	user     bool // the data are the user's own points
	history  []Record
	every    int // record metrics every this many steps (doubles as history is thinned)
	err      error
	evalErr  bool    // err is the loss over the training set (evalFault), not a step's
	two      bool    // the model has exactly two parameter values (Two)
	trail    []Point // a two-parameter model's path (Trail)
}

// New builds m (with its parameters, seeded or given) and prepares it to
// train on its configured dataset, or on data when data is not nil (the
// user's own points, split into training and test sets with the
// dataset's TrainSplit and Seed). file is the data file of a dataset read
// from one (see Generate), nil otherwise.
func New(m *spec.Model, data, file *train.Dataset) (*Session, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	points := 0
	if data != nil {
		points = data.Len()
	}
	if err := budget.CheckModel(m, budget.Examples(m, points)); err != nil {
		return nil, err
	}
	built, err := m.Build()
	if err != nil {
		return nil, err
	}
	s := &Session{spec: m, model: built, every: 1}
	if data != nil {
		s.user = true
		s.trainSet, s.testSet = Split(data, m.Dataset.TrainSplit, m.Dataset.Seed)
	} else {
		if m.Dataset.Name == "" {
			return nil, errors.New("no dataset: choose one or add points")
		}
		s.trainSet, s.testSet, err = Generate(m.Dataset, file)
		if err != nil {
			return nil, err
		}
	}
	// Metrics cost a pass over both sets: on large sets (digits) they are
	// recorded every few steps, so that at most evalValues input values
	// are evaluated per step on average.
	for (len(s.trainSet.X.Data)+len(s.testSet.X.Data))/s.every > evalValues {
		s.every *= 2
	}
	s.tr, err = train.NewTrainer(built, s.trainSet, m.Optimizer, m.BatchSize, m.Seed)
	if err != nil {
		return nil, err
	}
	if err := s.record(); err != nil {
		return nil, err
	}
	_, s.two = s.Two()
	s.follow()
	return s, nil
}

// Split shuffles a copy of d with seed and cuts it into a training set of
// frac of the examples (at least one) and a test set of the rest.
func Split(d *train.Dataset, frac float64, seed uint64) (trainSet, testSet *train.Dataset) {
	n := d.Len()
	fx, fy := d.X.Shape[1], d.Y.Shape[1]
	perm := rand.New(rand.NewPCG(seed, 2)).Perm(n)
	k := min(n, max(1, int(float64(n)*frac)))
	take := func(idx []int) *train.Dataset {
		x := &tensor.Tensor{Shape: tensor.Shape{len(idx), fx}, Data: make([]float64, len(idx)*fx)}
		y := &tensor.Tensor{Shape: tensor.Shape{len(idx), fy}, Data: make([]float64, len(idx)*fy)}
		for i, e := range idx {
			copy(x.Data[i*fx:(i+1)*fx], d.X.Data[e*fx:(e+1)*fx])
			copy(y.Data[i*fy:(i+1)*fy], d.Y.Data[e*fy:(e+1)*fy])
		}
		return &train.Dataset{X: x, Y: y, Classes: d.Classes}
	}
	return take(perm[:k]), take(perm[k:])
}

// Spec returns the settings the session trains with.
func (s *Session) Spec() *spec.Model { return s.spec }

// Model returns the model being trained.
func (s *Session) Model() *nn.Model { return s.model }

// Sets returns the training and test sets.
func (s *Session) Sets() (trainSet, testSet *train.Dataset) { return s.trainSet, s.testSet }

// UserData reports whether the session trains on the user's own points.
func (s *Session) UserData() bool { return s.user }

// Steps reports how many steps have run.
func (s *Session) Steps() int { return s.tr.Steps() }

// Err reports why training stopped (a *train.NumericError for NaN or
// infinite values), or nil.
func (s *Session) Err() error { return s.err }

// History returns the recorded metrics, oldest first.
func (s *Session) History() []Record { return s.history }

// Last returns the latest metrics.
func (s *Session) Last() Record { return s.history[len(s.history)-1] }

// Run trains up to n steps and reports how many ran. It stops at the first
// fault, which Err then reports (and which it returns).
func (s *Session) Run(n int) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	for i := 0; i < n; i++ {
		if _, err := s.tr.Step(); err != nil {
			s.err = err
			return i, err
		}
		s.follow()
		if s.tr.Steps()%s.every == 0 {
			if err := s.record(); err != nil {
				s.err = err
				return i + 1, err
			}
		}
	}
	return n, nil
}

// Measure records the current metrics unless the latest record is of the
// current step: after a single step or a pause, when metrics are recorded
// only every few steps.
func (s *Session) Measure() error {
	if s.err != nil || s.Last().Step == s.tr.Steps() {
		return s.err
	}
	if err := s.record(); err != nil {
		s.err = err
	}
	return s.err
}

// record appends the current metrics, thinning the history when full.
func (s *Session) record() error {
	tr, err := s.tr.Evaluate(s.trainSet)
	if err != nil {
		return err
	}
	te, err := s.tr.Evaluate(s.testSet)
	if err != nil {
		return err
	}
	if bad(tr.Loss) {
		s.evalErr = true
		return s.evalFault(tr.Loss)
	}
	s.history = append(s.history, Record{Step: s.tr.Steps(), Train: tr, Test: te})
	if len(s.history) > MaxHistory {
		kept := s.history[:1]
		for i := 2; i < len(s.history); i += 2 {
			kept = append(kept, s.history[i])
		}
		s.history = kept
		s.every *= 2
	}
	return nil
}

func bad(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }

// Params returns copies of the current parameter values by state_dict name,
// for a link or the stepper.
func (s *Session) Params() map[string]*tensor.Tensor {
	return s.model.StateDictCopy()
}

// Batch returns the inputs and targets of the last step's mini-batch (nils
// before the first step).
func (s *Session) Batch() (x, y *tensor.Tensor) { return s.tr.Batch() }

// FaultBatch returns the examples whose step shows where training met a
// NaN or ∞ (Err): the last step's mini-batch when the step met it, the
// whole training set when its loss did (the evaluation after a step: a
// mini-batch of the same weights may stay finite where the sum over the
// set overflows).
func (s *Session) FaultBatch() (x, y *tensor.Tensor) {
	if s.evalErr {
		return s.trainingSet()
	}
	return s.Batch()
}

// trainingSet is the training set as one batch of the model's inputs and
// targets.
func (s *Session) trainingSet() (x, y *tensor.Tensor) {
	m, n := s.model, s.trainSet.Len()
	return &tensor.Tensor{Shape: append(tensor.Shape{n}, m.Seq.Input()...), Data: s.trainSet.X.Data},
		&tensor.Tensor{Shape: append(tensor.Shape{n}, m.Loss.Target(m.Seq.Output())...), Data: s.trainSet.Y.Data}
}

// Classification reports whether the model classifies (a generated
// classification set, class-index points, or a classification loss).
func (s *Session) Classification() bool {
	return s.trainSet.Classes > 0 || s.model.Loss != nn.MSE
}

// evalFault names the first layer whose output over the training set is NaN
// or infinite, as the trainer does for a batch, when the loss over the
// whole set is not finite.
func (s *Session) evalFault(loss float64) error {
	m := s.model
	x, y := s.trainingSet()
	p := nn.NewPass(m)
	if err := p.Forward(x, y, nn.Eval, 0); err == nil {
		for i := 0; i < m.Seq.Len(); i++ {
			if !p.LayerOutput(i).Finite() {
				return &train.NumericError{Step: s.tr.Steps(), Layer: i, Type: m.Seq.Layer(i).Type(), What: "output (over the training set)", Value: loss}
			}
		}
	}
	return fmt.Errorf("step %d: the loss (%s) over the training set is %v: the outputs are finite but too large", s.tr.Steps(), m.Loss, loss)
}
