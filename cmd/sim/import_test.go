package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// simCmd runs sim with args in process and returns its exit code and output.
func simCmd(t *testing.T, args ...string) (int, string) {
	t.Helper()
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	code := 0
	if err := root.Execute(); err != nil {
		code = exitCode(err)
		out.WriteString("sim: " + err.Error() + "\n")
	}
	return code, out.String()
}

func TestImportOpenB(t *testing.T) {
	data := filepath.Join("..", "..", "importer", "openb", "testdata")
	dir := t.TempDir()
	out := filepath.Join(dir, "trace.yaml")
	code, msg := simCmd(t, "import", "openb", "--nodes", filepath.Join(data, "nodes.csv"),
		"--pods", filepath.Join(data, "tasks.csv"), "--mode", "fill", "--seed", "3", "-o", out)
	if code != 0 || !strings.Contains(msg, "seed 3, fill mode") {
		t.Fatalf("exit %d:\n%s", code, msg)
	}
	if code, msg := validateCmd(t, "", out); code != 0 {
		t.Fatalf("the imported scenario is invalid:\n%s", msg)
	}

	code, msg = simCmd(t, "import", "openb", "--nodes", filepath.Join(data, "nodes.csv"),
		"--pods", filepath.Join(data, "tasks-bad.csv"), "--mode", "timed", "-o", filepath.Join(dir, "bad.yaml"))
	if code != 2 || !strings.Contains(msg, "tasks-bad.csv:3: cpu_milli") {
		t.Errorf("bad rows: exit %d:\n%s", code, msg)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.yaml")); err == nil {
		t.Errorf("a scenario was written despite bad rows")
	}

	// The curve of a made-up replay in which every task was placed at once.
	var events bytes.Buffer
	w := record.NewWriter(&events)
	index, err := os.ReadFile(filepath.Join(dir, "trace.tasks.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(index)), "\n")[1:] {
		_ = w.Write(record.Event{Type: record.TypePlaced, Workload: "openb/" + strings.Split(line, ",")[0]})
	}
	_ = w.Flush()
	eventsPath := filepath.Join(dir, "events.jsonl")
	if err := os.WriteFile(eventsPath, events.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, msg = simCmd(t, "import", "openb-curve", out, eventsPath, "--csv", filepath.Join(dir, "curve.csv"))
	if code != 0 || !strings.Contains(msg, "| Kueue + kube-scheduler: allocated |") {
		t.Fatalf("openb-curve: exit %d:\n%s", code, msg)
	}
	curve, err := os.ReadFile(filepath.Join(dir, "curve.csv"))
	if err != nil || !strings.Contains(string(curve), "\n130,") {
		t.Errorf("curve CSV: %v\n%s", err, curve)
	}
}
