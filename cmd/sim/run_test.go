//go:build integration

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kueue-sim/kueue-sim/sim/procs"
)

// Every bundled scenario's expectations hold: the scenarios are the
// product's examples and its regression suite.
func TestBundledScenariosPass(t *testing.T) {
	files, err := filepath.Glob("../../scenarios/*.yaml")
	if err != nil || len(files) < 6 {
		t.Fatalf("bundled scenarios: %v (%d found)", err, len(files))
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".yaml"), func(t *testing.T) {
			t.Parallel()
			code, out := runSim(t, "run", f, "--progress", "none")
			if code != 0 {
				t.Fatalf("sim run %s exited %d:\n%s", f, code, out)
			}
			if strings.Contains(out, "FAIL") || !strings.Contains(out, "PASS") {
				t.Errorf("expectations not all passed:\n%s", out)
			}
		})
	}
}

// Two runs of the same scenario and seed write byte-identical decision
// traces (admissions, preemptions with reasons, placements, refusals),
// the second with Kueue's Workload, LocalQueue and Job reconcilers slowed
// as on a far busier machine (--slow-kueue).
func TestMultiTeamFairSharingTraceIsReproducible(t *testing.T) {
	var traces [2][]byte
	for i := range traces {
		dir := t.TempDir()
		args := []string{"run", "../../scenarios/multi-team-fair-sharing.yaml", "--report", dir, "--progress", "none"}
		if i == 1 {
			args = append(args, "--slow-kueue", slowReconcilers)
		}
		code, out := runSim(t, args...)
		if code != 0 {
			t.Fatalf("run %d exited %d:\n%s", i, code, out)
		}
		data, err := os.ReadFile(filepath.Join(dir, "decisions.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		traces[i] = data
	}
	if !bytes.Equal(traces[0], traces[1]) {
		a, b := strings.Split(string(traces[0]), "\n"), strings.Split(string(traces[1]), "\n")
		for i := 0; i < len(a) && i < len(b); i++ {
			if a[i] != b[i] {
				t.Fatalf("decision traces differ at line %d:\n  %s\n  %s", i+1, a[i], b[i])
			}
		}
		t.Fatalf("decision traces differ in length: %d and %d lines", len(a), len(b))
	}
	if !bytes.Contains(traces[0], []byte(`"type":"Preempted"`)) {
		t.Error("the trace has no preemption: the scenario no longer exercises fair sharing")
	}
}

// An expectation broken on purpose fails the run with exit code 1 and a
// message naming the workloads and the numbers.
func TestBrokenExpectationFailsWithNumbers(t *testing.T) {
	data, err := os.ReadFile("../../scenarios/quickstart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(data), "queueWait: {stream: train, percentile: 100, max: 1h}",
		"queueWait: {stream: train, percentile: 100, max: 20m}", 1)
	broken = strings.Replace(broken, "counts: {stream: train, admitted: 6, finished: 6, preempted: 0}",
		"counts: {stream: train, admitted: 6, finished: 5, preempted: 0}", 1)
	if broken == string(data) {
		t.Fatal("could not break quickstart's expectations: update this test")
	}
	path := filepath.Join(t.TempDir(), "broken.yaml")
	if err := os.WriteFile(path, []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out := runSim(t, "run", path, "--progress", "none")
	if code != 1 {
		t.Fatalf("exit code %d, want 1:\n%s", code, out)
	}
	for _, want := range []string{
		"FAIL  every-job-runs", "finished 6, want 5",
		"FAIL  wait-under-an-hour", "p100 queue wait 30m2s", "max allowed 20m0s", "research/train-4 waited 30m2s",
		"2 of 4 expectations failed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// quickstart's jobs as RayJobs run to their end: each RayJob's submitter
// pod (KubeRay's K8sJobMode) is counted with its cluster's pods: were the
// submitter's pod to carry none of the arrival's labels, no RayJob would
// count as running and the replay would end at its first instant with
// every RayJob unfinished.
func TestRayJobsRunToTheirEnd(t *testing.T) {
	f := writeVariant(t, "../../scenarios/quickstart.yaml", "  kind: Job\n", "  kind: RayJob\n")
	code, out := runSim(t, "run", f, "--progress", "none")
	if code != 0 {
		t.Fatalf("sim run of quickstart with RayJobs exited %d:\n%s", code, out)
	}
	for _, want := range []string{"6 admitted, 0 refused, 0 preempted, 6 finished", "all 12 pods on nodes of their flavor"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// Ctrl-C stops a run cleanly: the logs written so far stay, the event log
// ends with the interruption, and nothing of the control plane is left.
func TestRunInterruptedKeepsItsLogs(t *testing.T) {
	dir, runRoot := t.TempDir(), t.TempDir()
	cmd := exec.Command(buildSim(t), "run", "../../scenarios/multi-team-fair-sharing.yaml", "--report", dir, "--progress", "none")
	cmd.Env = append(os.Environ(), "KUEUESIM_RUN_ROOT="+runRoot)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// Interrupt once the replay has recorded a few admissions.
	deadline := time.Now().Add(3 * time.Minute)
	for {
		data, _ := os.ReadFile(filepath.Join(dir, "events.jsonl"))
		if bytes.Count(data, []byte(`"type":"Admitted"`)) >= 3 {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("no admissions recorded after 3 minutes:\n%s", out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Fatalf("sim run exited with %v after Ctrl-C, want exit code 1:\n%s", err, out.String())
		}
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("sim run still running a minute after Ctrl-C:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "run interrupted at simulated") {
		t.Errorf("sim run did not say it was interrupted:\n%s", out.String())
	}
	events, err := os.ReadFile(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(events)), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, `"type":"End"`) || !strings.Contains(last, `"reason":"Interrupted"`) {
		t.Errorf("event log does not end with the interruption: %s", last)
	}
	if pids := procs.CmdlinesContaining(runRoot); len(pids) > 0 {
		t.Errorf("processes of the interrupted run still alive: %v", cmdlines(pids))
	}
}
