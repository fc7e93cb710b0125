package kube

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

func manifest(apiVersion, kind, namespace, name string, spec map[string]any) map[string]any {
	meta := map[string]any{"name": name}
	if namespace != "" {
		meta["namespace"] = namespace
	}
	m := map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": meta}
	if spec != nil {
		m["spec"] = spec
	}
	return m
}

// complete adds what the streams and objects name and nobody declares, and
// nothing else.
func TestComplete(t *testing.T) {
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	admitted, finished := start.Add(time.Minute), start.Add(time.Hour)
	rec := func(ns, queue, cq, class string) record {
		req := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")}
		var prio *int32
		if class != "" {
			v := int32(50)
			prio = &v
		}
		return record{Namespace: ns, Queue: queue, ClusterQueue: cq, PriorityClass: class, Priority: prio, Kind: "Job",
			Replicas: 1, Requests: req, Total: req, Created: start, Admitted: &admitted, Finished: &finished}
	}
	lq := func(ns, name, cq string) map[string]any {
		return manifest("kueue.x-k8s.io/v1beta2", "LocalQueue", ns, name, map[string]any{"clusterQueue": cq})
	}
	cq := manifest("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "team-cq", map[string]any{})
	for _, tc := range []struct {
		name    string
		objs    []map[string]any
		base    *scenarios.Scenario
		recs    []record
		missing []string
		want    []string
	}{{
		name: "everything declared: nothing added",
		objs: []map[string]any{cq, lq("team", "gpu", "team-cq"),
			manifest("kueue.x-k8s.io/v1beta2", "WorkloadPriorityClass", "", "high", nil)},
		recs: []record{rec("team", "gpu", "team-cq", "high")},
	}, {
		name: "a profile outside the teams, with a priority class no workload carries",
		objs: []map[string]any{cq, lq("team", "gpu", "team-cq"),
			manifest("infrastructure.opendatahub.io/v1", "HardwareProfile", "apps", "big", map[string]any{
				"scheduling": map[string]any{"type": "Queue", "kueue": map[string]any{"localQueueName": "gpu", "priorityClass": "urgent"}}})},
		recs: []record{rec("team", "gpu", "team-cq", "")},
		want: []string{
			"Namespace apps: without labels, for HardwareProfile big (the cluster has no such namespace)",
			"LocalQueue apps/gpu: to ClusterQueue team-cq as team/gpu does, for HardwareProfile apps/big",
			"WorkloadPriorityClass urgent: value 0 for HardwareProfile apps/big: no workload carried it",
		},
	}, {
		name:    "a LocalQueue without its ClusterQueue, the ClusterQueues forbidden",
		objs:    []map[string]any{lq("team", "gpu", "ghost")},
		recs:    []record{rec("team", "gpu", "", "")},
		missing: []string{"forbidden: list clusterqueues.kueue.x-k8s.io: no"},
		want: []string{
			"ClusterQueue ghost: for LocalQueue team/gpu (ClusterQueues could not be listed), in Cohort imported",
			"ResourceFlavor default: ", "Cohort imported: ",
		},
	}, {
		name: "a ClusterQueue naming a flavor nobody declares, the ResourceFlavors forbidden",
		objs: []map[string]any{lq("team", "gpu", "team-cq"), manifest("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "team-cq", map[string]any{
			"resourceGroups": []any{map[string]any{"coveredResources": []any{"cpu"}, "flavors": []any{map[string]any{"name": "a100",
				"resources": []any{map[string]any{"name": "cpu", "nominalQuota": "8"}}}}}}})},
		recs:    []record{rec("team", "gpu", "team-cq", "")},
		missing: []string{"forbidden: list resourceflavors.kueue.x-k8s.io: no"},
		want:    []string{"ResourceFlavor a100: without node labels (any node), for ClusterQueue team-cq (ResourceFlavors could not be listed)"},
	}, {
		name: "a queue and a class the base lacks; the base's flavor and cohort reused",
		base: &scenarios.Scenario{Queues: scenarios.Queues{
			ResourceFlavors: []scenarios.ResourceFlavor{{Name: InferredFlavor}},
			Cohorts:         []scenarios.Cohort{{Name: InferredCohort}},
		}},
		recs: []record{rec("team", "gpu", "", "low"), rec("team", "cpu", "shared", "")},
		want: []string{
			"LocalQueue team/cpu: to ClusterQueue shared, the one that admitted them (status.admission)",
			"LocalQueue team/gpu: to ClusterQueue team-gpu, named <namespace>-<queue>: none of them was admitted",
			"ClusterQueue shared: for LocalQueue team/cpu (the cluster has no ClusterQueue of that name)",
			"ClusterQueue team-gpu: for LocalQueue team/gpu",
			"WorkloadPriorityClass low: value 50 from the workloads' spec.priority; the cluster lacks it",
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			imp := &Import{Manifests: Manifests{}, Scenario: newScenario("t"), Missing: tc.missing}
			imp.Scenario.Teams = []scenarios.Team{{Name: "team", Namespace: "team"}}
			for _, o := range tc.objs {
				imp.Manifests.Add(o["kind"].(string), o)
			}
			if err := imp.complete(tc.base, tc.recs, finished, "the cluster"); err != nil {
				t.Fatal(err)
			}
			got := imp.AddedText()
			if len(got) != len(tc.want) {
				t.Fatalf("added (-want +got):\n%s", cmp.Diff(tc.want, got))
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("addition %d: %q, want it to start with %q", i, got[i], w)
				}
			}
		})
	}
}

// Write refuses to leave a scenario that does not load, and says it is
// the importer's bug.
func TestWriteVerifies(t *testing.T) {
	imp := &Import{Manifests: Manifests{}, Command: "workloads", Source: "test", Scenario: newScenario("broken")}
	imp.Scenario.Workloads = []scenarios.Stream{{Name: "s", Team: "nobody", Kind: "Job"}}
	dir := t.TempDir()
	err := imp.Write(dir)
	if err == nil || !strings.Contains(err.Error(), "the imported scenario does not validate (a bug in sim import: please report it): ") ||
		!strings.Contains(err.Error(), `workloads[0].team: Not found: "nobody"`) {
		t.Fatalf("writing a broken import: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ScenarioFile)); err != nil {
		t.Errorf("the broken scenario is not left for the report: %v", err)
	}
}
