//go:build integration

package conformance

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sim is the sim command the cases run: each case replays in a process of
// its own, since a process runs at most one Kueue. KUEUESIM_CONFORMANCE_SIM
// names a built one (such as bin/sim-kueue-v0.16.2, to hold another Kueue
// release to the same verdicts); otherwise the test builds cmd/sim.
var sim string

func TestMain(m *testing.M) {
	if s := os.Getenv("KUEUESIM_CONFORMANCE_SIM"); s != "" {
		abs, err := filepath.Abs(s)
		if err != nil {
			panic(err)
		}
		sim = abs
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "kueue-sim-conformance-")
	if err != nil {
		panic(err)
	}
	sim = filepath.Join(dir, "sim")
	if out, err := exec.Command("go", "build", "-o", sim, "../cmd/sim").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		panic("building sim: " + err.Error() + "\n" + string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// cases are the scenario files of every case, manifests aside.
func cases(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob("*/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no conformance case found")
	}
	return paths
}

// Every case reaches the verdicts Kueue's own integration test asserts:
// `sim run` passes every expectation (exit 0) and prints each verdict.
func TestKueueIntegrationVerdicts(t *testing.T) {
	for _, path := range cases(t) {
		t.Run(strings.TrimSuffix(path, filepath.Ext(path)), func(t *testing.T) {
			cmd := exec.Command(sim, "run", path, "--progress", "none")
			cmd.Env = append(os.Environ(), "KUEUESIM_RUN_ROOT="+t.TempDir())
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			var exit *exec.ExitError
			switch {
			case err == nil:
			case errors.As(err, &exit):
				t.Errorf("sim run %s exited %d:\n%s", path, exit.ExitCode(), failures(out.String()))
			default:
				t.Fatalf("running sim: %v", err)
			}
		})
	}
}

// A raw Workload that Kueue preempts and admits again in the same instant
// runs again from that admission, with Kueue's reconcilers slowed as on a
// far busier machine (--slow-kueue) as without: both runs pass every
// expectation and write byte-identical decisions.
func TestReadmissionInOneInstantUnderSlowKueue(t *testing.T) {
	const path = "scheduler/preempt-while-borrowing.yaml"
	var traces [2][]byte
	for i, extra := range [][]string{nil, {"--slow-kueue", "30ms"}} {
		dir := t.TempDir()
		args := append([]string{"run", path, "--progress", "none", "--report", dir}, extra...)
		cmd := exec.Command(sim, args...)
		cmd.Env = append(os.Environ(), "KUEUESIM_RUN_ROOT="+t.TempDir())
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("sim %s: %v:\n%s", strings.Join(args, " "), err, failures(out.String()))
		}
		data, err := os.ReadFile(filepath.Join(dir, "decisions.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		traces[i] = data
	}
	if !bytes.Equal(traces[0], traces[1]) {
		t.Fatalf("decisions differ with --slow-kueue:\n%s\n---\n%s", traces[0], traces[1])
	}
}

// failures are the lines of sim run's output worth reading when a case
// fails: the verdicts and warnings, not Kueue's log.
func failures(out string) string {
	var keep []string
	for _, line := range strings.Split(out, "\n") {
		for _, p := range []string{"FAIL", "PASS", "warning", "simulated", "sim:", "running scenario"} {
			if strings.HasPrefix(line, p) {
				keep = append(keep, line)
				break
			}
		}
	}
	if len(keep) == 0 {
		return out
	}
	return strings.Join(keep, "\n")
}
