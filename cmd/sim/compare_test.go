package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// simInProcess runs the sim command line in this process and returns its
// exit code and output.
func simInProcess(t *testing.T, args ...string) (int, string) {
	t.Helper()
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		out.WriteString("sim: " + err.Error() + "\n")
		return exitCode(err), out.String()
	}
	return 0, out.String()
}

// runFolder writes the hand-made event log of package reports (a100
// utilization 11/12), changed by mutate, and its decisions into a folder
// as sim run --report would.
func runFolder(t *testing.T, mutate func([]record.Event)) string {
	t.Helper()
	events := readEvents(t, "../../reports/testdata/handmade.jsonl")
	if mutate != nil {
		mutate(events)
	}
	dir := t.TempDir()
	for name, keep := range map[string]func(record.Event) bool{
		"events.jsonl":    func(record.Event) bool { return true },
		"decisions.jsonl": func(e record.Event) bool { return record.IsDecision(e.Type) },
	} {
		var b bytes.Buffer
		w := record.NewWriter(&b)
		for _, e := range events {
			if keep(e) {
				if name == "decisions.jsonl" {
					e = record.Decision(e)
				}
				if err := w.Write(e); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// sim compare passes on an identical run and fails (exit 1) on a 20% drop
// of a100 utilization, naming the metric; --golden compares the traces.
func TestCompareCommand(t *testing.T) {
	base, same := runFolder(t, nil), runFolder(t, nil)
	dropped := runFolder(t, func(evs []record.Event) { evs[0].Capacity["a100"]["nvidia.com/gpu"] *= 1.25 })
	if code, out := simInProcess(t, "compare", base, same); code != 0 || !strings.Contains(out, "no breach: PASS") {
		t.Errorf("identical runs: exit %d:\n%s", code, out)
	}
	code, out := simInProcess(t, "compare", base, dropped)
	if code != 1 || !strings.Contains(out, "utilization{flavor=a100,resource=nvidia.com/gpu}") || !strings.Contains(out, "BREACH") {
		t.Errorf("20%% utilization drop: exit %d, want 1 and the breach:\n%s", code, out)
	}
	if code, out := simInProcess(t, "compare", "--golden", base, same); code != 0 || !strings.Contains(out, "identical") {
		t.Errorf("golden, same trace: exit %d:\n%s", code, out)
	}
	later := runFolder(t, func(evs []record.Event) {
		for i := range evs {
			if evs[i].Type == record.TypeAdmitted && evs[i].Workload == "team-b/b-2" {
				evs[i].T += record.Duration(60e9)
			}
		}
	})
	if code, out := simInProcess(t, "compare", "--golden", base, later); code != 1 || !strings.Contains(out, "differ from line") {
		t.Errorf("golden, an admission a minute later: exit %d, want 1:\n%s", code, out)
	}
	bad := filepath.Join(t.TempDir(), "thresholds.yaml")
	if err := os.WriteFile(bad, []byte("apiVersion: kueue-sim/v1alpha1\nkind: Thresholds\nrules:\n- metric: nope\n  min: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out := simInProcess(t, "compare", "--thresholds", bad, base, same); code != 2 || !strings.Contains(out, `rules[0].metric: Unsupported value: "nope"`) {
		t.Errorf("bad thresholds: exit %d, want 2 naming the field:\n%s", code, out)
	}
}

// sim report rebuilds every report file from a saved event log.
func TestReportCommand(t *testing.T) {
	out := t.TempDir()
	code, msg := simInProcess(t, "report", runFolder(t, nil), "--out", out)
	if code != 0 {
		t.Fatalf("sim report: exit %d:\n%s", code, msg)
	}
	for _, name := range []string{"report.json", "report.md", "report.html", "utilization.csv", "waits.csv"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("sim report wrote no %s", name)
		}
	}
	if code, msg := simInProcess(t, "report", filepath.Join(t.TempDir(), "missing.jsonl")); code != 2 {
		t.Errorf("missing event log: exit %d, want 2:\n%s", code, msg)
	}
}
