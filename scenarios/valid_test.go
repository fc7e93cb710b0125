package scenarios

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// minimal is the smallest useful scenario; the edge cases edit it.
const minimal = `apiVersion: kueue-sim/v1alpha1
kind: Scenario
cluster:
  nodePools:
  - name: a100
    count: 2
    allocatable: {cpu: "64", memory: 512Gi, nvidia.com/gpu: "4"}
queues:
  resourceFlavors:
  - name: a100
  clusterQueues:
  - name: research
    resourceGroups:
    - flavors:
      - name: a100
        resources:
          nvidia.com/gpu: {nominal: "8"}
teams:
- name: research
  localQueues:
  - {name: gpu, clusterQueue: research}
workloads:
- name: train
  team: research
  kind: Job
  duration: {fixed: 25m}
  requests: {nvidia.com/gpu: "4"}
  queue: gpu
`

// edit replaces old with new in minimal, which must hold old.
func edit(t *testing.T, pairs ...string) string {
	t.Helper()
	s := minimal
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("the minimal scenario has no %q", pairs[i])
		}
		s = strings.Replace(s, pairs[i], pairs[i+1], 1)
	}
	return s
}

const stream = "- name: train\n"

// TestValidEdgeCases loads scenarios at the edges of what is allowed.
func TestValidEdgeCases(t *testing.T) {
	bulk := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "- {name: bulk-%d, team: research, kind: Workload, count: %d, arrival: {poisson: 1s}, requests: {cpu: \"1\"}, queue: gpu}\n", i, MaxStreamCount)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name string
		yaml string
	}{
		{"minimal", minimal},
		{"leading --- and a trailing empty document", "---\n" + minimal + "---\n"},
		{"CRLF line endings", strings.ReplaceAll(minimal, "\n", "\r\n")},
		{"count and replicas at their limits", edit(t, "  kind: Job\n", fmt.Sprintf("  kind: PyTorchJob\n  count: %d\n  replicas: %d\n", MaxStreamCount, MaxReplicas))},
		{"all streams together at the workload limit", edit(t, "  queue: gpu\n", "  queue: gpu\n"+bulk(MaxWorkloads/MaxStreamCount-1))},
		{"a stream name at its length limit", edit(t, stream, "- name: "+strings.Repeat("a", MaxStreamName)+"\n")},
		{"arrival at without count", edit(t, "  duration:", "  arrival: {at: [0s, 0s, 10m, 8760h]}\n  duration:")},
		{"arrival at with a matching count", edit(t, "  duration:", "  count: 2\n  arrival: {at: [0s, 1h]}\n  duration:")},
		{"poisson arrivals from a start", edit(t, "  duration:", "  count: 50\n  arrival: {poisson: 30s, start: 0s}\n  duration:")},
		{"every with a start", edit(t, "  duration:", "  count: 3\n  arrival: {every: 1h, start: 8759h}\n  duration:")},
		{"lognormal sigma at its limit", edit(t, "{fixed: 25m}", "{lognormal: {median: 25m, sigma: 5}}")},
		{"a small lognormal sigma", edit(t, "{fixed: 25m}", "{lognormal: {median: 1s, sigma: 0.001}}")},
		{"durations one by one and a required node affinity", edit(t, "  duration: {fixed: 25m}\n", `  arrival: {at: [0s, 40s, 3m]}
  durations: [10m, 2m30s, 1h]
  requiredNodeAffinity:
  - {key: nvidia.com/gpu.product, operator: In, values: [NVIDIA-A100-SXM4-80GB]}
  - {key: example.com/generation, operator: Gt, values: ["3"]}
`)},
		{"exponential durations", edit(t, "{fixed: 25m}", "{exponential: 1h}")},
		{"no duration: a Notebook until runUntil", edit(t, "  kind: Job\n  duration: {fixed: 25m}\n", "  kind: Notebook\n  runUntil: 8h\n")},
		{"no duration: an InferenceService until the end", edit(t, "  kind: Job\n  duration: {fixed: 25m}\n", "  kind: InferenceService\n  replicas: 3\n")},
		{"end at one year", edit(t, "kind: Scenario\n", "kind: Scenario\nend: 8760h\n")},
		{"seed 0 and a description with unicode", edit(t, "kind: Scenario\n", "kind: Scenario\nseed: 0\ndescription: \"GPUs — 8× A100 ✓\"\n")},
		{"quantities as numbers and with suffixes", edit(t, `{nvidia.com/gpu: "4"}`, `{nvidia.com/gpu: 4, cpu: 1.5, memory: 64Gi, ephemeral-storage: 1e9, hugepages-2Mi: 1Gi}`)},
		{"a zero request", edit(t, `{nvidia.com/gpu: "4"}`, `{nvidia.com/gpu: "0", cpu: 100m}`)},
		{"cohorts named by ClusterQueues without being declared", edit(t, "  - name: research\n", "  - name: research\n    cohort: org\n")},
		{"nested cohorts with weights, borrowing and lending limits", edit(t,
			"  clusterQueues:\n", "  cohorts:\n  - {name: org}\n  - {name: ai, parent: org, fairSharingWeight: \"2\"}\n  clusterQueues:\n",
			"  - name: research\n", "  - name: research\n    cohort: ai\n    fairSharingWeight: 0\n    preemption: {withinClusterQueue: LowerPriority, reclaimWithinCohort: Any, borrowWithinCohort: {policy: LowerPriority}}\n",
			`{nominal: "8"}`, `{nominal: "8", borrowingLimit: "0", lendingLimit: "8"}`)},
		{"two resource groups", edit(t, "  - name: a100\n  clusterQueues", "  - name: a100\n  - name: cpu\n  clusterQueues",
			"          nvidia.com/gpu: {nominal: \"8\"}\n",
			"          nvidia.com/gpu: {nominal: \"8\"}\n    - flavors:\n      - name: cpu\n        resources: {cpu: {nominal: 64}, pods: {nominal: 110}}\n")},
		{"a hardware profile with a priority class instead of a queue", edit(t,
			"  clusterQueues:\n", "  priorityClasses:\n  - {name: high, value: 1000}\n  hardwareProfiles:\n  - {name: a100-large, localQueue: gpu, priorityClass: high}\n  clusterQueues:\n",
			"  queue: gpu\n", "  hardwareProfile: a100-large\n")},
		{"a Node-scheduling hardware profile", edit(t,
			"  clusterQueues:\n", "  hardwareProfiles:\n  - {name: pinned, nodeSelector: {nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB}}\n  clusterQueues:\n")},
		{"no queue at all (the webhook refuses it in managed namespaces)", edit(t, "  queue: gpu\n", "")},
		{"an unmanaged team with labels", edit(t, "teams:\n- name: research\n", "teams:\n- name: research\n  namespace: research-ns\n  unmanaged: true\n  labels: {example.com/cost-center: \"42\"}\n")},
		{"every expectation check, tolerances and percentiles at their edges", edit(t, "  queue: gpu\n", `  queue: gpu
expectations:
- {name: no-evictions, noEviction: {}}
- {name: no-notebook-evictions, noEviction: {kinds: [Notebook, RayCluster]}}
- {name: placed, placementMatchesFlavor: {}}
- {name: fair, fairShare: {cohort: org, resource: nvidia.com/gpu, tolerance: 0}}
- {name: fair-enough, fairShare: {cohort: org, tolerance: 1}}
- {name: own-quota-back, nominalGuarantee: {clusterQueue: research, within: 0s}}
- {name: cohort-quota-back, nominalGuarantee: {cohort: org, within: 8760h}}
- {name: longest-wait, queueWait: {team: research, percentile: 100, max: 0s}}
- {name: p50, queueWait: {stream: train, percentile: 0.1, max: 1h}}
- {name: idle, utilization: {flavor: a100, resource: nvidia.com/gpu, min: 0}}
- {name: counted, counts: {stream: train, admitted: 1, refused: 0, preempted: 0, finished: 1}}
- {name: none-pending-at-start, pendingCounts: {clusterQueue: research, at: 0s, active: 0, inadmissible: 0}}
- {name: one-aside, pendingCounts: {clusterQueue: research, at: 8760h, inadmissible: 1}}
`, "  - name: research\n", "  - name: research\n    cohort: org\n",
			"queues:\n", "  kueue:\n    fairSharing: {preemptionStrategies: [LessThanOrEqualToFinalShare]}\nqueues:\n")},
		{"a Kueue configuration", edit(t, "queues:\n", `  kueue:
    fairSharing: {preemptionStrategies: [LessThanOrEqualToFinalShare]}
    waitForPodsReady: {timeout: 5m, blockAdmission: true}
    featureGates: {TopologyAwareScheduling: false}
  openshiftAI: {managementState: Managed, operatorInstalled: false, disableKueue: true}
queues:
`)},
		{"node pools with taints and flavors with tolerations", edit(t,
			"    count: 2\n", "    count: 0\n    taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]\n",
			"  - name: a100\n  clusterQueues", "  - name: a100\n    tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]\n  clusterQueues")},
		{"anchors, aliases and merge keys", edit(t, stream, "- &train\n  name: train\n", "  requests: {nvidia.com/gpu: \"4\"}\n  queue: gpu\n",
			"  requests: &pod {cpu: \"8\", nvidia.com/gpu: \"4\"}\n  queue: gpu\n- {name: eval, team: research, kind: Job, requests: *pod}\n- <<: *train\n  name: retrain\n")},
		{"the same scenario as JSON", jsonScenario},
		{"comments everywhere", edit(t, "kind: Scenario\n", "kind: Scenario # the only kind\n# a comment\n", "  queue: gpu\n", "  queue: gpu # the LocalQueue\n# the end\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Load("edge.yaml", "edge", []byte(tc.yaml))
			if err != nil {
				t.Fatalf("Load: %v\n%s", err, tc.yaml)
			}
			if errs := Validate(s); len(errs) > 0 {
				t.Errorf("a loaded scenario fails Validate: %v", errs)
			}
		})
	}
}

const jsonScenario = `{"apiVersion": "kueue-sim/v1alpha1", "kind": "Scenario",
 "cluster": {"nodePools": [{"name": "a100", "count": 2, "allocatable": {"cpu": "64", "nvidia.com/gpu": "4"}}]},
 "queues": {"resourceFlavors": [{"name": "a100"}],
  "clusterQueues": [{"name": "research", "resourceGroups": [{"flavors": [{"name": "a100", "resources": {"nvidia.com/gpu": {"nominal": 8}}}]}]}]},
 "teams": [{"name": "research", "localQueues": [{"name": "gpu", "clusterQueue": "research"}]}],
 "workloads": [{"name": "train", "team": "research", "kind": "Job", "duration": {"fixed": "25m"}, "requests": {"nvidia.com/gpu": "4"}, "queue": "gpu"}]}`

// TestLoadDecodes checks that what is written is what is loaded, defaults
// included.
func TestLoadDecodes(t *testing.T) {
	s, err := Load("min.yaml", "min", []byte(edit(t, "  duration: {fixed: 25m}\n", "  duration: {lognormal: {median: 25m, sigma: 0.5}}\n  arrival: {at: [0s, 90s]}\n")))
	if err != nil {
		t.Fatal(err)
	}
	w := s.Workloads[0]
	gpu := w.Requests["nvidia.com/gpu"]
	got := fmt.Sprintf("name=%s seed=%d count=%d replicas=%d at=%v median=%s sigma=%g gpu=%s ns=%s state=%s",
		s.Name, *s.Seed, *w.Count, *w.Replicas, w.Arrival.At, w.Duration.LogNormal.Median.Duration, w.Duration.LogNormal.Sigma,
		gpu.String(), s.Teams[0].Namespace, s.Cluster.OpenShiftAI.ManagementState)
	want := "name=min seed=1 count=2 replicas=1 at=[{0s} {1m30s}] median=25m0s sigma=0.5 gpu=4 ns=research state=Unmanaged"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("loaded scenario (-want +got):\n%s", diff)
	}
	if w.Arrival.At[1].Duration != 90*time.Second {
		t.Errorf("at[1] = %s, want 1m30s", w.Arrival.At[1].Duration)
	}
}

// TestBundledScenarios loads every scenario shipped in this folder and in
// upgrade/: new ones are picked up as they are added.
func TestBundledScenarios(t *testing.T) {
	files, err := filepath.Glob("*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	upgrades, err := filepath.Glob("upgrade/*.yaml")
	if err != nil || len(upgrades) == 0 {
		t.Fatalf("no upgrade scenario (upgrade/*.yaml) found: %v", err)
	}
	files = append(files, upgrades...)
	if len(files) == 0 {
		t.Fatal("no bundled scenarios (*.yaml) found")
	}
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			s, err := LoadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if s.Description == "" {
				t.Error("a bundled scenario says what it shows in description")
			}
			if len(s.Expectations) == 0 {
				t.Error("a bundled scenario has expectations that hold")
			}
		})
	}
}
