//go:build integration

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
)

var (
	releaseMu    sync.Mutex
	releaseBuilt = map[string]error{}
)

// buildRelease builds sim-kueue-<release> beside the test's sim, as make
// kueue-releases does beside bin/sim, once per release; the test's sim
// itself is go.mod's release.
func buildRelease(t *testing.T, release string) {
	t.Helper()
	buildSim(t)
	if release == kueuerelease.Default {
		return
	}
	releaseMu.Lock()
	defer releaseMu.Unlock()
	err, done := releaseBuilt[release]
	if !done {
		minor := strings.ReplaceAll(kueuerelease.Minor(release), ".", "_")
		out, berr := exec.Command("go", "build", "-modfile=../../hack/kueue/"+release+".mod", "-tags", "kueue_"+minor,
			"-o", filepath.Join(binDir, "sim-kueue-"+release), ".").CombinedOutput()
		if berr != nil {
			err = &buildError{release: release, out: string(out), err: berr}
		}
		releaseBuilt[release] = err
	}
	if err != nil {
		t.Fatal(err)
	}
}

type buildError struct {
	release, out string
	err          error
}

func (e *buildError) Error() string {
	return "building the sim of Kueue " + e.release + ": " + e.err.Error() + "\n" + e.out
}

// Rehearsing the upgrade from v0.17.1 to v0.19.2 of a ClusterQueue whose
// quota is larger than its nodes shows v0.19's waitForPodsReady default:
// the configuration finding, and the two workloads whose pods cannot start
// evicted (PodsReadyTimeout) and admitted again under v0.19.2 only. With
// --fail-on and a rule against evictions, the rehearsal exits 1.
func TestUpgradeQuotaBeyondNodes(t *testing.T) {
	const to = "v0.19.2"
	buildRelease(t, "v0.17.1")
	buildRelease(t, to)
	dir := t.TempDir()
	code, out := runSim(t, "upgrade", "../../scenarios/upgrade/quota-beyond-nodes.yaml", "--from", "v0.17.1", "--to", to, "--report", dir)
	if code != 0 {
		t.Fatalf("sim upgrade exited %d:\n%s", code, out)
	}
	for _, want := range []string{
		"waitForPodsReady.enabled: false -> true",
		"research/train-2  evicted (PodsReadyTimeout) under v0.19.2 only; admitted 2 times vs 1",
		"research/train-3  evicted (PodsReadyTimeout) under v0.19.2 only; admitted 2 times vs 1",
		"2 of 4 workloads decide differently",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("sim upgrade's summary lacks %q:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "upgrade.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		From, To  string
		Workloads []struct{ Workload string }
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.From != "v0.17.1" || doc.To != to || len(doc.Workloads) != 2 {
		t.Errorf("upgrade.json: from %s to %s, %d workloads differ; want v0.17.1, %s, 2", doc.From, doc.To, len(doc.Workloads), to)
	}
	for _, f := range []string{"upgrade.md", "upgrade.html", "junit.xml", "from/decisions.jsonl", "to/decisions.jsonl"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("the report lacks %s: %v", f, err)
		}
	}

	rules := filepath.Join(t.TempDir(), "no-evictions.yaml")
	if err := os.WriteFile(rules, []byte("apiVersion: kueue-sim/v1alpha1\nkind: Thresholds\nrules:\n- metric: evictions\n  max: 0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out = runSim(t, "upgrade", "../../scenarios/upgrade/quota-beyond-nodes.yaml", "--from", "v0.17.1", "--to", to, "--report", t.TempDir(), "--fail-on", rules)
	if code != 1 || !strings.Contains(out, "FAIL: ") || !strings.Contains(out, "evictions") {
		t.Errorf("sim upgrade --fail-on exited %d, want 1 and a FAIL naming evictions:\n%s", code, out)
	}
}

// Rehearsing the upgrade from v0.17.1 to v0.19.2 of a resource group whose
// spot flavor does not declare the label the jobs' node affinity names
// shows kubernetes-sigs/kueue#12449: v0.17.1 checks each flavor against
// every flavor's label keys and keeps the third and fourth jobs waiting
// for on-demand quota; v0.19.2 admits them onto spot on arrival.
func TestUpgradeSpotFallbackAffinity(t *testing.T) {
	const to = "v0.19.2"
	buildRelease(t, "v0.17.1")
	buildRelease(t, to)
	code, out := runSim(t, "upgrade", "../../scenarios/upgrade/spot-fallback-affinity.yaml", "--from", "v0.17.1", "--to", to, "--report", t.TempDir())
	if code != 0 {
		t.Fatalf("sim upgrade exited %d:\n%s", code, out)
	}
	for _, want := range []string{
		"2 of 4 workloads decide differently",
		"research/train-2  admitted 28m1s earlier (waited 0s vs 28m1s); flavor cpu: a100-on-demand -> spot",
		"research/train-3  admitted 28m1s earlier (waited 0s vs 28m1s); flavor cpu: a100-on-demand -> spot",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("sim upgrade's summary lacks %q:\n%s", want, out)
		}
	}
}

// Rehearsing the upgrade from v0.17.1 to v0.19.2 of RayJobs in SidecarMode
// (a stream of the team's own RayJob manifest) whose Ray cluster asks for
// exactly the ClusterQueue's CPUs: v0.19.2 counts KubeRay's submitter
// container in the head pod set (kubernetes-sigs/kueue#12454) and admits
// neither.
func TestUpgradeRayJobSidecar(t *testing.T) {
	const to = "v0.19.2"
	buildRelease(t, "v0.17.1")
	buildRelease(t, to)
	code, out := runSim(t, "upgrade", "../../scenarios/upgrade/rayjob-sidecar.yaml", "--from", "v0.17.1", "--to", to, "--report", t.TempDir())
	if code != 0 {
		t.Fatalf("sim upgrade exited %d:\n%s", code, out)
	}
	for _, want := range []string{
		"2 of 2 workloads decide differently",
		"analytics/score-0  never admitted under v0.19.2",
		"analytics/score-1  never admitted under v0.19.2",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("sim upgrade's summary lacks %q:\n%s", want, out)
		}
	}
}
