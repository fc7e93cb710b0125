package compare

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kueue-sim/kueue-sim/reports"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// handmade builds the report of ../testdata/handmade.jsonl (a100
// utilization 11/12), after mutate changes its events.
func handmade(t *testing.T, mutate func([]record.Event)) *reports.Report {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "handmade.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	events, err := record.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	if mutate != nil {
		mutate(events)
	}
	return reports.Build(record.Build(events), nil)
}

// scaleCapacity multiplies the a100 GPUs of the Run header: utilization
// falls by 1 - 1/factor.
func scaleCapacity(factor float64) func([]record.Event) {
	return func(evs []record.Event) { evs[0].Capacity["a100"]["nvidia.com/gpu"] *= factor }
}

func table(t *testing.T, res Result) string {
	t.Helper()
	var b bytes.Buffer
	if err := res.WriteTable(&b, TableOptions{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestIdenticalRunsPass(t *testing.T) {
	res := Compare(handmade(t, nil), handmade(t, nil), nil)
	out := table(t, res)
	if !res.Passed() || !strings.Contains(out, "nothing moved") || !strings.Contains(out, "PASS") {
		t.Errorf("identical runs: passed %v:\n%s", res.Passed(), out)
	}
}

// A 20% utilization drop (capacity × 1.25 for the same holdings) breaches
// the built-in 5% rule; a 4% drop does not.
func TestUtilizationDropBreaches(t *testing.T) {
	res := Compare(handmade(t, nil), handmade(t, scaleCapacity(1.25)), nil)
	out := table(t, res)
	if res.Passed() || res.Breaches != 1 {
		t.Fatalf("20%% utilization drop: %d breaches, want 1:\n%s", res.Breaches, out)
	}
	for _, s := range []string{"utilization{flavor=a100,resource=nvidia.com/gpu}", "91.7%", "73.3%", "-18.3pp (-20.0%)", "-5%", "BREACH", "1 breach(es): FAIL"} {
		if !strings.Contains(out, s) {
			t.Errorf("table lacks %q:\n%s", s, out)
		}
	}
	small := Compare(handmade(t, nil), handmade(t, scaleCapacity(1/0.96)), nil)
	if !small.Passed() {
		t.Errorf("4%% drop breached the 5%% rule:\n%s", table(t, small))
	}
}

func TestThresholdsFileRules(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "thresholds.yaml")
	if err := os.WriteFile(path, []byte(`apiVersion: kueue-sim/v1alpha1
kind: Thresholds
rules:
- metric: utilization
  labels: {flavor: a100}
  maxRegression: 0.25
  min: 0.75
  why: the A100s were bought for training
- metric: refusals
  ignore: true
`), 0o600); err != nil {
		t.Fatal(err)
	}
	th, err := LoadThresholds(path)
	if err != nil {
		t.Fatal(err)
	}
	// 20% less: within 25%, but 73.3% is under the 75% floor.
	res := Compare(handmade(t, nil), handmade(t, scaleCapacity(1.25)), th)
	out := table(t, res)
	if res.Breaches != 1 || !strings.Contains(out, "below the minimum 75.0% (the A100s were bought for training)") {
		t.Errorf("want one breach of the minimum with its rationale:\n%s", out)
	}
	// An ignored metric never breaches.
	res = Compare(handmade(t, nil), handmade(t, func(evs []record.Event) {
		for i := range evs {
			if evs[i].Type == record.TypeRefused {
				evs[i].Type = record.TypeWarning
			}
		}
	}), th)
	for _, r := range res.Rows {
		if r.ID == "refusals" && r.Status != Ignored {
			t.Errorf("refusals: status %s, want ignored", r.Status)
		}
	}
}

func TestThresholdsValidation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.yaml")
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`apiVersion: kueue-sim/v1alpha1
kind: Thresholds
rules:
- metric: utilisation
  maxRegression: 0.1
- metric: utilization
  labels: {team: a}
  maxRegression: -1
- metric: queue_wait_seconds
- metric: preemptions
  min: 5
  max: 1
`)
	_, err := LoadThresholds(path)
	if err == nil {
		t.Fatal("invalid thresholds loaded")
	}
	for _, s := range []string{
		`rules[0].metric: Unsupported value: "utilisation"`,
		`rules[1].labels[team]: Unsupported value: "team": supported values: "flavor", "resource"`,
		`rules[1].maxRegression: Invalid value: -1`,
		`rules[2]: Required value: set maxRegression, slack, min, max or ignore`,
		`rules[3].min: Invalid value: 5: must not exceed max (1)`,
	} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error lacks %q:\n%v", s, err)
		}
	}
	write("apiVersion: kueue-sim/v1alpha1\nkind: Thresholds\nrules:\n- metric: utilization\n  maxRegresion: 0.1\n")
	if _, err := LoadThresholds(path); err == nil || !strings.Contains(err.Error(), `unknown field "rules[0].maxRegresion"`) {
		t.Errorf("unknown field: %v", err)
	}
}

func TestGolden(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"), filepath.Join(dir, "c.jsonl")
	lines := "{\"t\":0,\"type\":\"Admitted\",\"workload\":\"x\"}\n{\"t\":60,\"type\":\"Admitted\",\"workload\":\"y\"}\n"
	for p, s := range map[string]string{a: lines, b: lines, c: strings.Replace(lines, `"t":60`, `"t":120`, 1)} {
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	same, err := Golden(a, b)
	if err != nil || !same.Identical {
		t.Fatalf("identical traces: %+v, %v", same, err)
	}
	diff, err := Golden(a, c)
	if err != nil || diff.Identical || len(diff.Diffs) != 1 || diff.Diffs[0].Line != 2 {
		t.Fatalf("traces differing on line 2: %+v, %v", diff, err)
	}
	var out bytes.Buffer
	if err := diff.Write(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "differ from line 2") || !strings.Contains(out.String(), `+ {"t":120`) {
		t.Errorf("golden output:\n%s", out.String())
	}
}

// withoutShares drops the Share events, as in a log recorded before
// kueue-sim observed Kueue's weighted shares.
func withoutShares(evs []record.Event) []record.Event {
	var out []record.Event
	for _, e := range evs {
		if e.Type != record.TypeShare {
			out = append(out, e)
		}
	}
	return out
}

// A baseline without weighted shares is compared on everything else: the
// fairness metrics are new, not breaches, and a note says to re-record it.
func TestBaselineWithoutSharesIsNotComparedOnFairness(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "testdata", "handmade.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	events, err := record.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	base := reports.Build(record.Build(withoutShares(events)), nil)
	res := Compare(base, handmade(t, nil), nil)
	out := table(t, res)
	if !res.Passed() {
		t.Fatalf("a baseline without shares failed the comparison:\n%s", out)
	}
	gaps := 0
	for _, r := range res.Rows {
		if r.Kind.Name == "fair_share_gap" {
			gaps++
			if r.Status != Added || !strings.Contains(r.Note, "not compared") {
				t.Errorf("%s: status %s, note %q; want new and not compared", r.ID, r.Status, r.Note)
			}
		}
	}
	if gaps != 2 {
		t.Errorf("%d fair_share_gap rows, want max and mean:\n%s", gaps, out)
	}
	if !strings.Contains(out, "note: the baseline holds no weighted shares") || !strings.Contains(out, "make gate-baseline") {
		t.Errorf("the table does not say the baseline lacks shares:\n%s", out)
	}
}

// A comparison of runs that different Kueue releases decided says so: an
// upgrade rehearsal reads its differences as the upgrade's.
func TestComparisonNamesBothKueueReleases(t *testing.T) {
	version := func(v string) func([]record.Event) {
		return func(evs []record.Event) { evs[0].KueueVersion = v }
	}
	res := Compare(handmade(t, version("v0.16.2")), handmade(t, version("v0.19.2")), nil)
	if out := table(t, res); !strings.Contains(out, "Kueue v0.16.2 decided the baseline and Kueue v0.19.2 the new run") {
		t.Errorf("the table does not name both Kueue releases:\n%s", out)
	}
	res = Compare(handmade(t, version("v0.17.0")), handmade(t, version("v0.17.0")), nil)
	if len(res.Notes) != 0 {
		t.Errorf("runs of one Kueue release carry notes: %q", res.Notes)
	}
}
