package main

import (
	"strings"
	"testing"
)

func TestPlanRejectsBadPaths(t *testing.T) {
	code, out := simInProcess(t, "plan", "testdata/plan-minimum.yaml", "--vary", "cluster.nodePools[h100].count=1,2", "--out", t.TempDir())
	if code != 2 || !strings.Contains(out, `cluster.nodePools has no element named "h100" (names: a100)`) {
		t.Errorf("unknown pool: exit %d, want 2:\n%s", code, out)
	}
	code, out = simInProcess(t, "plan", "testdata/plan-minimum.yaml", "--vary", "cluster.nodepools[a100].count=1", "--out", t.TempDir())
	if code != 2 || !strings.Contains(out, `cluster has no field "nodepools"; its fields: kueue, kueueConfig, kueueReleases, kueueVersion, nodePools, openshiftAI`) {
		t.Errorf("misspelt field: exit %d, want 2:\n%s", code, out)
	}
}
