package bench

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// The JavaScript and Python contenders print these same first numbers; a
// change here must be made in bench/js/workloads.mjs and torch_bench.py too.
func TestMulberry32MatchesJavaScript(t *testing.T) {
	// Values printed by node: const r = mulberry32(1); [r(), r(), r()]
	want := []float64{0.6270739405881613, 0.002735721180215478, 0.5274470399599522}
	r := mulberry32(1)
	for i, w := range want {
		if got := r(); got != w {
			t.Errorf("draw %d = %v, want %v", i, got, w)
		}
	}
}

func TestReportPrintsRatios(t *testing.T) {
	in := `banner line
{"contender":"tfjs-cpu","workload":"tiny","steps_per_s":100,"loss_first":1,"loss_last":0.5}
{"contender":"tfjs-wasm","workload":"tiny","steps_per_s":200,"loss_first":1,"loss_last":0.5}
{"contender":"tapelab-wasm","workload":"tiny","steps_per_s":3000,"loss_first":1,"loss_last":0.5}
{"contender":"gorgonia-wasm","workload":"tiny","steps_per_s":250,"loss_first":1,"loss_last":0.5}
{"contender":"tapelab-native","workload":"big","steps_per_s":150,"loss_first":1,"loss_last":0.5}
{"contender":"gorgonia","workload":"big","steps_per_s":120,"loss_first":1,"loss_last":0.5}`
	rs, err := ReadResults(strings.NewReader(in))
	if err != nil || len(rs) != 6 {
		t.Fatalf("ReadResults: %d results, err %v", len(rs), err)
	}
	var b strings.Builder
	if err := Report(&b, rs); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"RATIO tiny tapelab-wasm/tfjs-best 15.00", "RATIO tiny tapelab-wasm/tfjs-cpu 30.00",
		"RATIO tiny tapelab-wasm/gorgonia-wasm 12.00", "RATIO big tapelab-native/gorgonia 1.25"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "pytorch") || strings.Contains(b.String(), "RATIO tiny tapelab-native/gorgonia") {
		t.Errorf("report prints a ratio for an unmeasured contender:\n%s", b.String())
	}
}

func TestCheckLosses(t *testing.T) {
	for _, tc := range []struct {
		name    string
		results []Result
		bad     string // what the error names; "" for none
	}{
		{"agree to float32", []Result{
			{Contender: "pytorch", Workload: "cnn", LossFirst: 2.310957908630371, Loss10: 2.282721996307373},
			{Contender: "tapelab-native", Workload: "cnn", LossFirst: 2.310957941431828, Loss10: 2.2827221498403367},
		}, ""},
		{"a wrong forward", []Result{
			{Contender: "tapelab-native", Workload: "cnn", LossFirst: 2.3109, Loss10: 2.2827},
			{Contender: "tfjs-wasm", Workload: "cnn", LossFirst: 2.3190, Loss10: 2.2827},
		}, "cnn tfjs-wasm's first loss"},
		{"a wrong gradient", []Result{
			{Contender: "tapelab-native", Workload: "big", LossFirst: 2.3264, Loss10: 2.3348},
			{Contender: "gorgonia", Workload: "big", LossFirst: 2.3264, Loss10: 2.3301},
		}, "big gorgonia's 10th loss"},
		{"no reference but the first", []Result{
			{Contender: "tfjs-cpu", Workload: "tiny", LossFirst: 0.2796, Loss10: 0.2312},
			{Contender: "pytorch", Workload: "tiny", LossFirst: 0.2796, Loss10: 0.2312},
		}, ""},
	} {
		err := CheckLosses(tc.results)
		switch {
		case tc.bad == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.bad != "" && (err == nil || !strings.Contains(err.Error(), tc.bad)):
			t.Errorf("%s: error %v, want one naming %q", tc.name, err, tc.bad)
		}
	}
}

func TestMergeTakesTheMedianOverRounds(t *testing.T) {
	rs := Merge([]Result{
		{Contender: "a", Workload: "tiny", Runs: []float64{1, 2, 3}, LossFirst: 1, LossLast: 0.5},
		{Contender: "b", Workload: "tiny", Runs: []float64{10}},
		{Contender: "a", Workload: "tiny", Runs: []float64{100, 200}, LossLast: 0.25},
	})
	if len(rs) != 2 {
		t.Fatalf("Merge gave %d results, want 2: %+v", len(rs), rs)
	}
	if a := rs[0]; a.Contender != "a" || len(a.Runs) != 5 || a.StepsPerS != 3 || a.LossFirst != 1 || a.LossLast != 0.25 {
		t.Errorf("merged a = %+v, want 5 runs, median 3, losses 1 -> 0.25", a)
	}
}

// TestWorkloadsMatchJavaScriptAndPython holds the workload tables of the
// TensorFlow.js and PyTorch contenders (bench/js/workloads.mjs,
// torch_bench.py) to Workloads: every contender must run the same schedule.
func TestWorkloadsMatchJavaScriptAndPython(t *testing.T) {
	for _, tc := range []struct {
		file string
		// entry finds a workload's definition by name; key and value are
		// how a field is written.
		entry, field string
	}{
		{"js/workloads.mjs", `(?m)^\s*%s: \{(.*)\},?$`, `(\w+): ('[^']*'|\[[^\]]*\]|[0-9.]+)`},
		{"torch_bench.py", `(?m)^\s*"%s": dict\((.*)\),?$`, `(\w+)=("[^"]*"|\[[^\]]*\]|[0-9.]+)`},
	} {
		src, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range Workloads() {
			m := regexp.MustCompile(fmt.Sprintf(tc.entry, w.Name)).FindSubmatch(src)
			if m == nil {
				t.Errorf("%s: no workload %q", tc.file, w.Name)
				continue
			}
			got := map[string]string{}
			for _, f := range regexp.MustCompile(tc.field).FindAllSubmatch(m[1], -1) {
				got[string(f[1])] = strings.Trim(string(f[2]), `'"`)
			}
			want := map[string]string{
				"sizes": list(w.Sizes), "act": w.Act, "loss": w.Loss, "n": fmt.Sprint(w.N), "batch": fmt.Sprint(w.Batch),
				"lr": fmt.Sprint(w.LR), "warmup": fmt.Sprint(w.Warmup), "warmup_ms": fmt.Sprint(w.WarmupMS),
				"runs": fmt.Sprint(w.Runs), "steps": fmt.Sprint(w.Steps),
			}
			if len(w.Image) > 0 {
				want["image"] = list(w.Image)
				var ch, ks, pads, pools []int
				for _, c := range w.Convs {
					ch, ks, pads, pools = append(ch, c.Out), append(ks, c.Kernel), append(pads, c.Padding), append(pools, max(c.Pool, 1))
				}
				want["channels"], want["kernels"], want["paddings"], want["pools"] = list(ch), list(ks), list(pads), list(pools)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, workload %s:\n got %v\nwant %v", tc.file, w.Name, got, want)
			}
		}
	}
}

// list writes xs as the JavaScript and Python tables do: [2, 16, 16, 1].
func list(xs []int) string {
	return strings.Join(strings.Fields(fmt.Sprint(xs)), ", ")
}

// TestCNNShapes checks the cnn workload's geometry: its convolutions leave
// as many features as its first dense layer reads, and Params lays out a
// convolution's weights as PyTorch's [out c k k].
func TestCNNShapes(t *testing.T) {
	for _, w := range Workloads() {
		if got := w.Features(); got != w.Sizes[0] {
			t.Errorf("%s: the convolutions leave %d features, the dense layers read %d", w.Name, got, w.Sizes[0])
		}
		if w.Name != "cnn" {
			continue
		}
		ps := w.Params()
		want := [][2]int{{1 * 3 * 3, 8}, {8 * 3 * 3, 16}, {64, 10}}
		if len(ps) != len(want) {
			t.Fatalf("cnn: %d layers, want %d", len(ps), len(want))
		}
		for i, p := range ps {
			if p.In != want[i][0] || p.Out != want[i][1] || len(p.W) != p.In*p.Out || len(p.B) != p.Out {
				t.Errorf("cnn layer %d: in %d out %d, %d weights, %d biases; want in %d out %d", i, p.In, p.Out, len(p.W), len(p.B), want[i][0], want[i][1])
			}
		}
	}
}
