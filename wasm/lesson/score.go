package lesson

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Verdict is how a student's prediction compares with the engine's value.
type Verdict struct {
	// Right reports that the prediction counts as correct: for a number,
	// within Tolerance (see Score); for a sign, the same sign.
	Right bool
	// Message says how close it was, e.g. "Right: within 1% of 0.75.",
	// "Off by a factor of 2 (too small): the answer is -6.",
	// "Wrong sign: the answer is -4.".
	Message string
}

// Tolerance is the relative closeness a number prediction must reach to
// count as right: within 1% of the answer.
const Tolerance = 0.01

// AbsTolerance is the closeness that counts as right for answers near
// zero, where 1% is a sliver: within 0.001.
const AbsTolerance = 0.001

// Score grades the student's typed answer to q against the engine's actual
// value. The rule, for a number guess g and actual value a:
//
//   - right when |g − a| ≤ max(Tolerance·|a|, AbsTolerance): "Right:
//     exactly." when g == a, else "Right: within 1% of a.";
//   - otherwise, when g and a have opposite signs: "Wrong sign";
//   - when one is zero: off by |g − a|;
//   - when a/g (or g/a) is 1.5 or more: "Off by a factor of N (too small
//     / too large)", N rounded to a whole number from 2 on (1.5 and up
//     to one decimal);
//   - else "Close: within P%" (P the relative error rounded up to a
//     whole percent).
//
// For a sign question the guess is "+", "-" or "0" (also "positive",
// "negative", "zero"); it is right when it matches the sign of a, whose
// sign is zero when |a| ≤ 1e-9. A guess that cannot be read is an error
// saying what was expected.
func Score(q *Question, guess string, actual float64) (Verdict, error) {
	if math.IsNaN(actual) || math.IsInf(actual, 0) {
		return Verdict{}, fmt.Errorf("the engine's value is %v: nothing to compare with", actual)
	}
	if q.Answer == AnswerSign {
		return scoreSign(guess, actual)
	}
	g, err := readNumber(guess)
	if err != nil {
		return Verdict{}, err
	}
	return scoreNumber(g, actual), nil
}

// readNumber reads a typed number: spaces around it are ignored, and the
// typographic minus (−) is a minus.
func readNumber(s string) (float64, error) {
	t := strings.ReplaceAll(strings.TrimSpace(s), "−", "-")
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a number (type one like 0.5, -2 or 1e-3)", strings.TrimSpace(s))
	}
	return v, nil
}

func scoreNumber(g, a float64) Verdict {
	ans := num(a)
	diff := math.Abs(g - a)
	if g == a {
		return Verdict{Right: true, Message: "Right: exactly " + ans + "."}
	}
	if diff <= math.Max(Tolerance*math.Abs(a), AbsTolerance) {
		return Verdict{Right: true, Message: "Right: within 1% of " + ans + "."}
	}
	if g != 0 && a != 0 && (g < 0) != (a < 0) {
		return Verdict{Message: "Wrong sign: the answer is " + ans + "."}
	}
	if g == 0 || a == 0 {
		return Verdict{Message: "Off by " + num(diff) + ": the answer is " + ans + "."}
	}
	ratio, side := math.Abs(a/g), "too small"
	if ratio < 1 {
		ratio, side = 1/ratio, "too large"
	}
	if ratio >= 1.5 {
		return Verdict{Message: "Off by a factor of " + factor(ratio) + " (" + side + "): the answer is " + ans + "."}
	}
	pct := math.Ceil(100 * diff / math.Abs(a))
	return Verdict{Message: fmt.Sprintf("Close: within %.0f%% (%s): the answer is %s.", pct, side, ans)}
}

// factor words a ratio ≥ 1.5: one decimal below 2 ("1.5"), whole from 2
// on ("2", "10").
func factor(r float64) string {
	if r < 1.95 {
		return strconv.FormatFloat(math.Round(r*10)/10, 'f', -1, 64)
	}
	return strconv.FormatFloat(math.Round(r), 'f', -1, 64)
}

// num formats an answer with up to 6 significant digits.
func num(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// signZero is the magnitude below which a value's sign counts as zero.
const signZero = 1e-9

func scoreSign(guess string, a float64) (Verdict, error) {
	var g int
	switch strings.ToLower(strings.TrimSpace(guess)) {
	case "+", "positive":
		g = 1
	case "-", "−", "negative":
		g = -1
	case "0", "zero":
		g = 0
	default:
		return Verdict{}, fmt.Errorf("%q is not a sign (pick +, - or 0)", strings.TrimSpace(guess))
	}
	want := 0
	switch {
	case a > signZero:
		want = 1
	case a < -signZero:
		want = -1
	}
	words := [...]string{"negative", "zero", "positive"}
	if g == want {
		return Verdict{Right: true, Message: "Right: it is " + words[want+1] + " (" + num(a) + ")."}, nil
	}
	return Verdict{Message: "Wrong: it is " + words[want+1] + " (" + num(a) + "), not " + words[g+1] + "."}, nil
}
