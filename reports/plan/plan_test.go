package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

func TestParsePathErrors(t *testing.T) {
	for raw, want := range map[string]string{
		"cluster.nodepools[a100].count":   `the scenario has no field "nodepools"`[len("the scenario "):],
		"cluster.nodePools[a100]":         "ends at an object: name one of its fields: allocatable, count, labels, name, taints",
		"cluster.nodePools":               "ends at a list or map",
		"workloads[train].count[0]":       "count is neither a list nor a map: drop [0]",
		"workloads..count":                `"" is not a field name`,
		"workloads[train":                 "[ without ]",
		"queues.clusterQueues[a].bogus":   `clusterQueues[a] has no field "bogus"; its fields: cohort, fairSharingWeight, name, namespaceSelector, preemption, resourceGroups`,
		"cluster.nodePools[a100].count.x": "count is a value, not an object",
	} {
		_, err := ParsePath(raw)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParsePath(%q) = %v, want an error containing %q", raw, err, want)
		}
	}
	for _, ok := range []string{
		"cluster.nodePools[a100].count",
		"queues.clusterQueues[team-a].resourceGroups[0].flavors[a100].resources[nvidia.com/gpu].nominal",
		"workloads[train].count",
		"workloads[train].requests[nvidia.com/gpu]",
		"queues.clusterQueues[team-c].fairSharingWeight",
		"cluster.kueue.fairSharing.preemptionStrategies",
		"workloads[0].duration.fixed",
	} {
		if _, err := ParsePath(ok); err != nil {
			t.Errorf("ParsePath(%q): %v", ok, err)
		}
	}
}

func TestVaryValuesAreChecked(t *testing.T) {
	for raw, want := range map[string]string{
		"cluster.nodePools[a100].count=1,two":                 "cluster.nodePools[a100].count=two: not a whole number",
		"workloads[train].duration.fixed=10m,ten":             "not a duration",
		"workloads[train].requests[cpu]=1,lots":               "not a quantity",
		"cluster.nodePools[a100].count":                       "want PATH=V1,V2",
		"cluster.nodePools[a100].count=1,2;x.y=1":             `the scenario has no field "x"`,
		"cluster.nodePools[a].count=1,2;workloads[t].count=1": "need as many values each",
	} {
		_, err := ParseVary(raw)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseVary(%q) = %v, want an error containing %q", raw, err, want)
		}
	}
}

// The first --vary changes slowest; linked paths move together; shards
// are disjoint and cover the sweep.
func TestCombinationsAndShards(t *testing.T) {
	a, err := ParseVary("cluster.nodePools[a100].count=1,2;queues.clusterQueues[q].resourceGroups[0].flavors[a100].resources[nvidia.com/gpu].nominal=4,8")
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseVary("workloads[train].count=3,6,9")
	if err != nil {
		t.Fatal(err)
	}
	all, err := Combinations([]Vary{a, b})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range all {
		got = append(got, describe(c))
	}
	nodes, quota, count := "cluster.nodePools[a100].count=", ", queues.clusterQueues[q].resourceGroups[0].flavors[a100].resources[nvidia.com/gpu].nominal=", ", workloads[train].count="
	want := []string{
		nodes + "1" + quota + "4" + count + "3", nodes + "1" + quota + "4" + count + "6", nodes + "1" + quota + "4" + count + "9",
		nodes + "2" + quota + "8" + count + "3", nodes + "2" + quota + "8" + count + "6", nodes + "2" + quota + "8" + count + "9",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("combinations (-want +got):\n%s", diff)
	}
	seen := map[int]int{}
	for i := 0; i < 4; i++ {
		s, err := ParseShard(strings.Join([]string{string(rune('0' + i)), "4"}, "/"))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range s.Of(all) {
			seen[c.Index]++
		}
	}
	for i := range all {
		if seen[i] != 1 {
			t.Errorf("combination %d is in %d shards, want 1", i, seen[i])
		}
	}
	for _, bad := range []string{"4/4", "-1/2", "1", "a/b", "0/0"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
}

// Apply changes only the varied fields and writes a scenario that loads.
func TestApplyQuickstart(t *testing.T) {
	data, err := os.ReadFile("../../scenarios/quickstart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	v, err := ParseVary("cluster.nodePools[a100].count=3;queues.clusterQueues[research].resourceGroups[0].flavors[a100].resources[nvidia.com/gpu].nominal=12")
	if err != nil {
		t.Fatal(err)
	}
	w, err := ParseVary("workloads[train].duration.fixed=1h")
	if err != nil {
		t.Fatal(err)
	}
	all, _ := Combinations([]Vary{v, w})
	out := filepath.Join(t.TempDir(), "quickstart.yaml")
	if err := Apply(data, "quickstart", []Vary{v, w}, all[0], out, "."); err != nil {
		t.Fatal(err)
	}
	s, err := scenarios.LoadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	q := s.Queues.ClusterQueues[0].ResourceGroups[0].Flavors[0].Resources["nvidia.com/gpu"].Nominal
	if s.Cluster.NodePools[0].Count != 3 || q.String() != "12" || s.Workloads[0].Duration.Fixed.Duration.String() != "1h0m0s" || s.Name != "quickstart" {
		t.Errorf("varied scenario: %d nodes, quota %s, duration %v, name %s", s.Cluster.NodePools[0].Count, q.String(), s.Workloads[0].Duration.Fixed, s.Name)
	}
	var before, after map[string]any
	_ = yaml.Unmarshal(data, &before)
	written, _ := os.ReadFile(out)
	_ = yaml.Unmarshal(written, &after)
	if before["description"] != after["description"] || len(after["expectations"].([]any)) != 4 {
		t.Errorf("fields that were not varied changed")
	}

	bad, _ := ParseVary("cluster.nodePools[h100].count=3")
	combos, _ := Combinations([]Vary{bad})
	err = Apply(data, "quickstart", []Vary{bad}, combos[0], out, ".")
	if err == nil || !strings.Contains(err.Error(), `cluster.nodePools has no element named "h100" (names: a100, cpu)`) {
		t.Errorf("missing pool: %v", err)
	}
	neg, _ := ParseVary("cluster.nodePools[a100].count=-1")
	combos, _ = Combinations([]Vary{neg})
	if err := Apply(data, "quickstart", []Vary{neg}, combos[0], out, "."); err == nil || !strings.Contains(err.Error(), "makes an invalid scenario") {
		t.Errorf("negative count: %v", err)
	}
}

// Apply names a stream's template file by its absolute path: the varied
// copy, written elsewhere, loads it.
func TestApplyTemplates(t *testing.T) {
	data, err := os.ReadFile("../../scenarios/testdata/templates.yaml")
	if err != nil {
		t.Fatal(err)
	}
	v, err := ParseVary("workloads[finetune].count=3")
	if err != nil {
		t.Fatal(err)
	}
	combos, _ := Combinations([]Vary{v})
	out := filepath.Join(t.TempDir(), "templates.yaml")
	if err := Apply(data, "templates", []Vary{v}, combos[0], out, "../../scenarios/testdata"); err != nil {
		t.Fatal(err)
	}
	s, err := scenarios.LoadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if f := s.Workloads[1].Template.File; !filepath.IsAbs(f) || *s.Workloads[1].Count != 3 {
		t.Errorf("varied stream: template %s, count %d", f, *s.Workloads[1].Count)
	}
}

func TestMergeAndBest(t *testing.T) {
	shard := func(s string, outcomes ...Outcome) *Plan {
		return &Plan{SchemaVersion: SchemaVersion, Digest: "d", Vary: []string{"v"}, Total: 3, Shards: []string{s}, Outcomes: outcomes}
	}
	o := func(i int, value string, capacity float64, passed bool) Outcome {
		return Outcome{Combination: Combination{Index: i, Settings: []Setting{{Path: "p", Value: value}}}, Capacity: capacity, Passed: passed, Resource: "nvidia.com/gpu"}
	}
	m, err := Merge([]*Plan{shard("1/2", o(1, "2", 8, true)), shard("0/2", o(0, "1", 4, false), o(2, "3", 12, true))})
	if err != nil {
		t.Fatal(err)
	}
	if m.Best == nil || *m.Best != 1 || len(m.Missing) != 0 || len(m.Outcomes) != 3 || m.Outcomes[0].Index != 0 {
		t.Errorf("merged: best %v, missing %v, outcomes %+v", m.Best, m.Missing, m.Outcomes)
	}
	if _, err := Merge([]*Plan{shard("0/2", o(0, "1", 4, true)), shard("0/2", o(0, "1", 4, true))}); err == nil || !strings.Contains(err.Error(), "combination 0 is in shards") {
		t.Errorf("duplicate shard: %v", err)
	}
	other := shard("1/2")
	other.Digest = "e"
	if _, err := Merge([]*Plan{shard("0/2"), other}); err == nil || !strings.Contains(err.Error(), "different scenario file") {
		t.Errorf("other scenario: %v", err)
	}
	partial, _ := Merge([]*Plan{shard("0/2", o(0, "1", 4, false), o(2, "3", 12, true))})
	if !strings.Contains(partial.Summary(), "missing: [1]") {
		t.Errorf("partial merge summary: %s", partial.Summary())
	}
	if svg, err := m.Chart(); err != nil || !strings.HasPrefix(svg, "<svg") {
		t.Errorf("chart: %v", err)
	}
}
