package lesson

import (
	"strings"
	"testing"
)

func TestScoreNumber(t *testing.T) {
	q := &Question{Answer: AnswerNumber}
	tests := []struct {
		guess  string
		actual float64
		right  bool
		msg    string
	}{
		{"6", 6, true, "Right: exactly 6."},
		{" -2 ", -2, true, "Right: exactly -2."},
		{"−4", -4, true, "Right: exactly -4."},
		{"0.7525", 0.75, true, "Right: within 1% of 0.75."},
		{"0.7574", 0.75, true, "Right: within 1% of 0.75."},
		{"0.76", 0.75, false, "Close: within 2% (too large): the answer is 0.75."},
		{"0.0005", 0, true, "Right: within 1% of 0."},
		{"1e-4", 0.0009, true, "Right: within 1% of 0.0009."},
		{"0.5", 0.75, false, "Off by a factor of 1.5 (too small): the answer is 0.75."},
		{"3", 6, false, "Off by a factor of 2 (too small): the answer is 6."},
		{"12", 6, false, "Off by a factor of 2 (too large): the answer is 6."},
		{"0.6", 6, false, "Off by a factor of 10 (too small): the answer is 6."},
		{"6", -6, false, "Wrong sign: the answer is -6."},
		{"0", 6, false, "Off by 6: the answer is 6."},
		{"2", 0, false, "Off by 2: the answer is 0."},
		{"7", 6.5, false, "Close: within 8% (too large): the answer is 6.5."},
	}
	for _, tt := range tests {
		v, err := Score(q, tt.guess, tt.actual)
		if err != nil || v.Right != tt.right || v.Message != tt.msg {
			t.Errorf("Score(%q, %v) = %+v, %v; want right=%v %q", tt.guess, tt.actual, v, err, tt.right, tt.msg)
		}
	}
	for _, bad := range []string{"", "six", "1/2", "NaN", "inf", "0x"} {
		if _, err := Score(q, bad, 1); err == nil || !strings.Contains(err.Error(), "is not a number") {
			t.Errorf("Score(%q) = %v, want a not-a-number error", bad, err)
		}
	}
}

func TestScoreSign(t *testing.T) {
	q := &Question{Answer: AnswerSign}
	tests := []struct {
		guess  string
		actual float64
		right  bool
		msg    string
	}{
		{"+", 0.5, true, "Right: it is positive (0.5)."},
		{"negative", -2, true, "Right: it is negative (-2)."},
		{"−", -2, true, "Right: it is negative (-2)."},
		{"0", 1e-12, true, "Right: it is zero (1e-12)."},
		{"-", 3, false, "Wrong: it is positive (3), not negative."},
		{"zero", -1, false, "Wrong: it is negative (-1), not zero."},
	}
	for _, tt := range tests {
		v, err := Score(q, tt.guess, tt.actual)
		if err != nil || v.Right != tt.right || v.Message != tt.msg {
			t.Errorf("Score(%q, %v) = %+v, %v; want right=%v %q", tt.guess, tt.actual, v, err, tt.right, tt.msg)
		}
	}
	if _, err := Score(q, "up", 1); err == nil || !strings.Contains(err.Error(), "is not a sign (pick +, - or 0)") {
		t.Errorf("Score(up) = %v", err)
	}
	if _, err := Score(q, "+", 0/zero()); err == nil {
		t.Error("a NaN answer is scored")
	}
}

func zero() float64 { return 0 }
