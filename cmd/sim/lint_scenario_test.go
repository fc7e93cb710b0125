package main

import (
	"bytes"
	"strings"
	"testing"
)

// runInProcess runs the sim command line in this process and returns its
// exit code and output.
func runInProcess(t *testing.T, args ...string) (int, string) {
	t.Helper()
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		out.WriteString(err.Error())
		return exitCode(err), out.String()
	}
	return 0, out.String()
}

func TestLintScenarioFindsWhatTheWebhooksWouldRefuse(t *testing.T) {
	code, out := runInProcess(t, "lint", "../../scenarios/webhook-enforcement.yaml")
	if code != 1 {
		t.Fatalf("exit code %d, want 1:\n%s", code, out)
	}
	for _, want := range []string{
		"Notebook project-x/notebook-without-queue-0 [queueLabel]",
		"InferenceService project-x/model-without-queue-0 [queueLabel]",
		"HardwareProfile project-x/a100-pinned [nodeProfile]",
		"InferenceService project-x/model-pinned-to-nodes-0 [nodeProfile]",
		"5 finding(s)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("lint output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "notebook-with-profile") || strings.Contains(out, "training-with-profile") {
		t.Errorf("lint flagged workloads whose Queue hardware profile gives them a queue:\n%s", out)
	}
}

func TestLintCleanScenarioHasNoFindings(t *testing.T) {
	code, out := runInProcess(t, "lint", "../../scenarios/notebook-non-preemptive.yaml")
	if code != 0 || !strings.Contains(out, "no findings") {
		t.Fatalf("exit code %d, want 0 with no findings:\n%s", code, out)
	}
}

func TestLintScenarioFlagsANotebookOnAPreemptiveQueue(t *testing.T) {
	path := writeVariant(t, "../../scenarios/notebook-non-preemptive.yaml",
		"    preemption: {withinClusterQueue: Never, reclaimWithinCohort: Never}",
		"    preemption: {withinClusterQueue: LowerPriority, reclaimWithinCohort: Never}")
	code, out := runInProcess(t, "lint", path)
	if code != 1 || !strings.Contains(out, "[notebookQueue]") {
		t.Fatalf("exit code %d, want 1 with a notebookQueue finding:\n%s", code, out)
	}
}
