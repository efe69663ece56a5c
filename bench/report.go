package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// ReadResults reads one Result per line, skipping lines that are not JSON
// objects (contenders may print banners).
func ReadResults(r io.Reader) ([]Result, error) {
	var out []Result
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var res Result
		if err := json.Unmarshal([]byte(line), &res); err != nil {
			return nil, fmt.Errorf("bench: bad result line %q: %v", line, err)
		}
		out = append(out, res)
	}
	return out, sc.Err()
}

// Merge combines the results of several rounds: one Result per workload and
// contender, in first-seen order, whose runs are all the rounds' runs and
// whose rate is their median. Interleaving the contenders over rounds and
// taking the median keeps a passing burst of load on a shared machine from
// favouring whichever contender happened to run in a quiet moment.
func Merge(results []Result) []Result {
	var out []Result
	at := map[string]int{}
	for _, r := range results {
		k := r.Workload + " " + r.Contender
		i, ok := at[k]
		if !ok {
			at[k] = len(out)
			r.Runs = append([]float64(nil), r.Runs...)
			out = append(out, r)
			continue
		}
		out[i].Runs = append(out[i].Runs, r.Runs...)
		out[i].LossLast = r.LossLast
	}
	for i := range out {
		if len(out[i].Runs) > 0 {
			out[i].StepsPerS = median(out[i].Runs)
		}
	}
	return out
}

// Ratio is one comparison the report prints as "RATIO <workload> <a>/<b> <value>".
type Ratio struct{ Workload, A, B string }

// Ratios are the comparisons bench/README.md reports, for every workload.
func Ratios() []Ratio {
	var rs []Ratio
	for _, w := range []string{"tiny", "big", "cnn"} {
		rs = append(rs,
			Ratio{w, "tapelab-wasm", "tfjs-best"},
			Ratio{w, "tapelab-wasm", "tfjs-cpu"},
			Ratio{w, "tapelab-wasm", "tfjs-wasm"},
			Ratio{w, "tapelab-wasm", "pytorch"},
			Ratio{w, "tapelab-native", "pytorch"},
			Ratio{w, "tapelab-native", "gorgonia"},
			Ratio{w, "tapelab-wasm", "gorgonia-wasm"},
		)
	}
	return rs
}

// Report writes the table of steps/s and then one RATIO line per ratio
// whose two sides were measured. "tfjs-best" is the faster TF.js backend.
func Report(w io.Writer, results []Result) error {
	results = Merge(results)
	rate := map[string]float64{}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "workload\tcontender\tsteps/s (median)\truns\tloss first\tloss last\t")
	for _, r := range results {
		rate[r.Workload+" "+r.Contender] = r.StepsPerS
		fmt.Fprintf(tw, "%s\t%s\t%.1f\t%d\t%.4f\t%.4f\t\n", r.Workload, r.Contender, r.StepsPerS, len(r.Runs), r.LossFirst, r.LossLast)
		if strings.HasPrefix(r.Contender, "tfjs-") {
			k := r.Workload + " tfjs-best"
			rate[k] = max(rate[k], r.StepsPerS)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for _, q := range Ratios() {
		a, okA := rate[q.Workload+" "+q.A]
		b, okB := rate[q.Workload+" "+q.B]
		if okA && okB && b > 0 {
			fmt.Fprintf(w, "RATIO %s %s/%s %.2f\n", q.Workload, q.A, q.B, a/b)
		}
	}
	return CheckLosses(results)
}

// LossTolerance is how far, relatively, a contender's first and 10th
// losses may be from the reference's: float32 against float64 over ten
// steps differs by about 1e-6 here; a wrong layer, layout or gradient by
// far more.
const LossTolerance = 1e-4

// CheckLosses returns an error naming every contender whose first or 10th
// loss disagrees with its workload's reference (tapelab-native's, or the
// first contender's): each trains the same network from the same weights
// on the same batches, so they must agree to float32 precision.
func CheckLosses(results []Result) error {
	ref := map[string]Result{}
	for _, r := range results {
		if q, ok := ref[r.Workload]; !ok || (r.Contender == "tapelab-native" && q.Contender != r.Contender) {
			ref[r.Workload] = r
		}
	}
	var bad []string
	for _, r := range results {
		q := ref[r.Workload]
		for _, l := range []struct {
			what      string
			got, want float64
		}{{"first", r.LossFirst, q.LossFirst}, {"10th", r.Loss10, q.Loss10}} {
			if !(math.Abs(l.got-l.want) <= LossTolerance*math.Abs(l.want)) {
				bad = append(bad, fmt.Sprintf("%s %s's %s loss %.7g, %s's %.7g", r.Workload, r.Contender, l.what, l.got, q.Contender, l.want))
			}
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("bench: the contenders trained different networks:\n%s", strings.Join(bad, "\n"))
	}
	return nil
}
