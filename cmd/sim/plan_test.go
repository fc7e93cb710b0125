//go:build integration

package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kueue-sim/kueue-sim/reports/plan"
)

// sim plan finds the minimum worked out by hand in
// testdata/plan-minimum.yaml: three 4-GPU jobs of 30 minutes, n nodes of
// 4 GPUs with 4n GPUs of quota, at most 31 minutes of wait (30 and Kueue's
// one-second requeue batch): n = 2. It runs
// the three configurations two at a time as real `sim run` processes; the
// shards of the same sweep then merge to the same answer.
func TestPlanFindsSmallestNodeCount(t *testing.T) {
	out := t.TempDir()
	vary := "cluster.nodePools[a100].count=1,2,3;" +
		"queues.clusterQueues[research].resourceGroups[0].flavors[a100].resources[nvidia.com/gpu].nominal=4,8,12"
	code, log := runSim(t, "plan", "testdata/plan-minimum.yaml", "--vary", vary, "--parallel", "2", "--out", out)
	if code != 0 {
		t.Fatalf("sim plan exited %d:\n%s", code, log)
	}
	p, err := plan.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if p.Best == nil || *p.Best != 1 {
		t.Fatalf("best configuration %v, want #1 (2 nodes):\n%s", p.Best, log)
	}
	want := []struct {
		passed      bool
		capacity    float64
		p90, maxW   float64
		utilization float64
	}{
		// n=1: waits 0, 30m1s, 60m2s; the node is busy but for the two
		// requeue seconds: 3 × 4 × 30 GPU-min over 4 GPUs × 90m2s.
		{false, 4, 3602, 3602, 360.0 / (4 * (90 + 2.0/60))},
		// n=2: waits 0, 0, 30m1s; 8 GPUs × 60m1s, 3 × 4 × 30 GPU-min used.
		{true, 8, 1801, 1801, 360.0 / (8 * (60 + 1.0/60))},
		// n=3: no wait; everything runs for the 30 minutes.
		{true, 12, 0, 0, 1},
	}
	for i, o := range p.Outcomes {
		w := want[i]
		if o.Passed != w.passed || o.Capacity != w.capacity || o.P90Wait != w.p90 || o.MaxWait != w.maxW || math.Abs(o.Utilization-w.utilization) > 1e-9 {
			t.Errorf("run %d (%s): passed %v, %g GPUs, p90 wait %gs, max %gs, utilization %g; want %+v\n%s",
				i, o.Settings[0].Value, o.Passed, o.Capacity, o.P90Wait, o.MaxWait, o.Utilization, w, decisionsOf(t, out, i))
		}
	}
	if !strings.Contains(log, "smallest configuration meeting every expectation: #1, cluster.nodePools[a100].count=2") {
		t.Errorf("summary missing:\n%s", log)
	}
	if svg, err := os.ReadFile(filepath.Join(out, plan.ChartFile)); err != nil || !strings.HasPrefix(string(svg), "<svg") {
		t.Errorf("plan.svg: %v", err)
	}
	junit, err := os.ReadFile(filepath.Join(out, "runs", "0000", "junit.xml"))
	if err != nil || !strings.Contains(string(junit), `<failure message="p100 queue wait 1h0m2s`) {
		t.Errorf("junit.xml of the failing run: %v\n%s", err, junit)
	}

	// sim report rebuilds the same numbers from a run's saved event log.
	rebuilt := t.TempDir()
	if code, msg := simInProcess(t, "report", filepath.Join(out, "runs", "0001"), "--out", rebuilt); code != 0 {
		t.Fatalf("sim report: %s", msg)
	}
	if a, b := metricsOf(t, filepath.Join(out, "runs", "0001")), metricsOf(t, rebuilt); a != b {
		t.Errorf("sim report rebuilt other metrics than sim run wrote:\n%s\n%s", a, b)
	}

	// Split as two shards would have, the results merge to the same answer.
	dirs := [2]string{t.TempDir(), t.TempDir()}
	for i, d := range dirs {
		shard := *p
		shard.Shards, shard.Outcomes, shard.Best = []string{[]string{"0/2", "1/2"}[i]}, nil, nil
		for _, o := range p.Outcomes {
			if o.Index%2 == i {
				shard.Outcomes = append(shard.Outcomes, o)
			}
		}
		data, _ := json.Marshal(shard)
		if err := os.WriteFile(filepath.Join(d, plan.JSONFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	merged := t.TempDir()
	if code, msg := simInProcess(t, "plan", "merge", dirs[0], dirs[1], "--out", merged); code != 0 || !strings.Contains(msg, "#1, cluster.nodePools[a100].count=2") {
		t.Errorf("sim plan merge: exit %d:\n%s", code, msg)
	}
}

func metricsOf(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command(buildSim(t), "compare", "--all", dir, dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sim compare: %v\n%s", err, out)
	}
	return string(out)
}

// decisionsOf is what run i of the plan in out decided and warned, for a
// failure's message.
func decisionsOf(t *testing.T, out string, i int) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, "runs", fmt.Sprintf("%04d", i), "events.jsonl"))
	if err != nil {
		return err.Error()
	}
	var keep []string
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.Contains(line, `"type":"Running"`) && !strings.Contains(line, `"type":"PendingCounts"`) {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}
