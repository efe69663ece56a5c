package main

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestReport builds a small program for js/wasm and checks the report on
// it: the sections, a row for the program's own package and for the
// runtime, and rows that add up to the total.
func TestReport(t *testing.T) {
	var all bytes.Buffer
	if err := run(context.Background(), &all, "./testdata/hello", 1000, 1); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"for js/wasm: ", "| code | ", "| data | ", "| main | ", "| runtime | ", "| strings | ",
		"| function names | ", "| of which names no one reads ", "| pc tables: pcsp", "| pc tables: pcdata 1 (stack maps)", "| pc tables no function refers to "} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("the report has no %q:\n%s", want, all.String())
		}
	}
	if strings.Contains(all.String(), " other packages |") {
		t.Errorf("a report with a row for every package has a row for the rest:\n%s", all.String())
	}

	var out bytes.Buffer
	if err := run(context.Background(), &out, "./testdata/hello", 8, 1); err != nil {
		t.Fatal(err)
	}
	report := out.String()
	t.Logf("\n%s", report)
	row := regexp.MustCompile(`(?m)^\| ([^|]+) \| ([0-9,]+) \| ([0-9,]+) \| [0-9.]+% \| ([0-9,]+) \|$`)
	num := func(s string) int {
		n, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
		if err != nil {
			t.Fatalf("%q is not a number", s)
		}
		return n
	}
	funcs, code := 0, 0
	rows := row.FindAllStringSubmatch(report, -1)
	if len(rows) != 9 {
		t.Fatalf("%d package rows, want 8 and one for the rest", len(rows))
	}
	for _, r := range rows {
		funcs += num(r[2])
		code += num(r[3])
		if num(r[4]) == 0 || num(r[4]) > num(r[3])+16 {
			t.Errorf("%s: brotli estimate %s for %s code bytes", r[1], r[4], r[3])
		}
	}
	pclntab := regexp.MustCompile(`(?m)^\| (header|function names|compilation units' file lists|file names|function index and records \(_func\)|pc tables[^|]+|all) \| ([0-9,]+) \|$`).FindAllStringSubmatch(report, -1)
	parts := 0
	for _, r := range pclntab[:len(pclntab)-1] {
		parts += num(r[2])
	}
	if last := pclntab[len(pclntab)-1]; last[1] != "all" || num(last[2]) != parts || len(pclntab) < 9 {
		t.Errorf("the pclntab's %d rows add up to %d, its last row says %v", len(pclntab)-1, parts, last)
	}
	total := regexp.MustCompile(`(?m)^\| all \d+ packages \| ([0-9,]+) \| ([0-9,]+) \| 100% \| \|$`).FindStringSubmatch(report)
	if total == nil {
		t.Fatal("the report has no total row")
	}
	if funcs != num(total[1]) || code != num(total[2]) {
		t.Errorf("the rows add up to %d functions and %d bytes, the total says %s and %s", funcs, code, total[1], total[2])
	}
}

func TestRunErrors(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, "./testdata/hello", 8, 12); err == nil || !strings.Contains(err.Error(), "0 to 11") {
		t.Errorf("quality 12: err = %v, want one naming the range", err)
	}
	if err := run(context.Background(), &out, "./testdata/none", 8, 1); err == nil || !strings.Contains(err.Error(), "go build") {
		t.Errorf("a missing package: err = %v, want the build's error", err)
	}
}

func TestGroup(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 7294163: "7,294,163", 123456: "123,456"} {
		if got := group(n); got != want {
			t.Errorf("group(%d) = %q, want %q", n, got, want)
		}
	}
}
