package graph

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/randprog"
	"tapelab/engine/tensor"
)

// checkLinked is TorchLean's theorem 8.3.5 (the linked session) on one
// program: the program runs on an eager session, FromSession snapshots what
// it recorded, CompileChecked compiles the snapshot, and for a random seed
// pack (-0.0, ±Inf and NaN included) the compiled dense reverse pass equals
// Backprop on the snapshot and the live session's own BackwardDenseFrom, bit
// for bit; the compiled values equal the session's. Last, the snapshot is
// the graph graph.Builder records for the same program. mutate, when not
// nil, breaks the snapshot before it is compiled (see mutants).
func checkLinked(c *randprog.Case, r *rand.Rand, mutate func(*Graph) *Graph) error {
	s, err := eager(c)
	if err != nil {
		return fmt.Errorf("eager: %v", err)
	}
	g, in, err := FromSession(s)
	if err != nil {
		return fmt.Errorf("FromSession: %v", err)
	}
	if mutate != nil {
		g = mutate(g)
	}
	cc, err := CompileChecked(g, in)
	if err != nil {
		return fmt.Errorf("CompileChecked of the snapshot: %v", err)
	}
	live := s.Tape()
	if err := sameTensors("compiled snapshot vs session values", cc.Values(), tapeValues(live)); err != nil {
		return err
	}
	seeds := seedPack(r, cc.Values(), r.IntN(3) == 0)
	got, err := cc.BackwardDenseFrom(seeds)
	if err != nil {
		return fmt.Errorf("BackwardDenseFrom: %v", err)
	}
	want, err := Backprop(g, in, seeds)
	if err != nil {
		return fmt.Errorf("Backprop: %v", err)
	}
	if err := sameTensors("compiled snapshot BackwardDenseFrom vs Backprop", got, want); err != nil {
		return err
	}
	session, err := tapeGrads(live, seeds)
	if err != nil {
		return fmt.Errorf("session BackwardDenseFrom: %v", err)
	}
	if err := sameTensors("compiled snapshot vs live session BackwardDenseFrom", got, session); err != nil {
		return err
	}
	b, err := build(c)
	if err != nil {
		return fmt.Errorf("build: %v", err)
	}
	if got, want := g.String(), b.String(); got != want {
		return fmt.Errorf("the snapshot differs from the recorded graph:\n%s\nwant:\n%s", got, want)
	}
	return nil
}

// TestLinkedSessionEqualsBackprop is theorem 8.3.5 over random programs.
func TestLinkedSessionEqualsBackprop(t *testing.T) {
	forPrograms(t, config, func(c *randprog.Case, r *rand.Rand) error { return checkLinked(c, r, nil) })
}

func TestLinkedSessionCatchesMutants(t *testing.T) {
	caughtShare(t, checkLinked)
}

// TestSnapshotErrors: what cannot be snapshotted fails with the reason and,
// where there is one, the node.
func TestSnapshotErrors(t *testing.T) {
	failed := autograd.NewSession()
	x := failed.Param(tensor.Vector(1, 2), "x")
	op.MatMul(failed, x, x) // rank 1: the shape rule refuses
	wrongShape := &autograd.Tape{}
	wrongShape.Leaf(tensor.Vector(1, 2), "x", autograd.Param, true)
	wrongShape.Record(lookup(t, "tanh"), op.Attrs{}, []int{0}, tensor.Vector(0, 0, 0))
	fused := autograd.NewSession()
	fused.ApplyAct(lookup(t, "linear"), op.Attrs{}, fused.Input(tensor.Zeros(tensor.Shape{1, 2}), "x"),
		fused.Param(tensor.Zeros(tensor.Shape{3, 2}), "W"), fused.Param(tensor.Zeros(tensor.Shape{3}), "b"), lookup(t, "tanh"), op.Attrs{})
	for _, tc := range []struct {
		name string
		snap func() error
		want string
	}{
		{"no session", func() error { _, _, err := FromSession(nil); return err }, "no session"},
		{"nil tape", func() error { _, _, err := FromTape(nil); return err }, "empty tape"},
		{"empty session", func() error { _, _, err := FromSession(autograd.NewSession()); return err }, "empty tape"},
		{"failed recording", func() error { _, _, err := FromSession(failed); return err }, "the session's recording failed: node 1 matmul"},
		{"fused training node", func() error { _, _, err := FromSession(fused); return err }, "node 3 linear+tanh(): a fused training node"},
		{"shape unlike the op's rule", func() error { _, _, err := FromTape(wrongShape); return err }, "node 1 tanh([2]): recorded shape [3] differs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.snap(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestSnapshotIsACopy: the snapshot keeps the values the session recorded
// when the session's parameters change afterwards.
func TestSnapshotIsACopy(t *testing.T) {
	w := tensor.Vector(1, 2)
	s := autograd.NewSession()
	op.Tanh(s, s.Param(w, "w"))
	_, leaves, err := FromSession(s)
	if err != nil {
		t.Fatal(err)
	}
	w.Data[0] = 5
	if leaves[0].Data[0] != 1 {
		t.Errorf("the snapshot's leaf changed with the session's parameter: %v", leaves[0])
	}
}
