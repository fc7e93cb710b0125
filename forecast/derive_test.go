package forecast

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// baseScenario names files relatively and absolutely, and holds one
// stream with a template file and one with an inline template.
const baseScenario = `apiVersion: kueue-sim/v1alpha1
kind: Scenario
name: base
end: 10h
cluster:
  kueueConfig: kueue/config.yaml
queues:
  manifests:
  - queues.yaml
  - /abs/more.yaml
teams:
- name: research
  localQueues: [{name: gpu, clusterQueue: research}]
workloads:
- name: a
  team: research
  template: jobs/a.yaml
  queue: gpu
- name: b
  team: research
  template: /abs/b.yaml
  queue: gpu
- name: c
  team: research
  template:
    apiVersion: batch/v1
    kind: Job
  queue: gpu
`

func jobStream() stream {
	return stream{Name: "forecast", Team: "research", Template: "/abs/job.yaml", Queue: "gpu",
		Arrival: map[string]any{"at": []string{"30m0s"}}, Duration: map[string]any{"fixed": "1h0m0s"}}
}

// decode is the derived scenario as a generic tree.
func decode(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		t.Fatalf("derived scenario does not decode: %v\n%s", err, data)
	}
	return m
}

func TestDeriveAppendsStreamLast(t *testing.T) {
	out, err := derive([]byte(baseScenario), []stream{jobStream()}, 3*time.Hour, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := decode(t, out)["workloads"].([]any)
	if len(ws) != 4 {
		t.Fatalf("workloads: got %d streams, want 4", len(ws))
	}
	last := ws[3].(map[string]any)
	if last["name"] != "forecast" || last["team"] != "research" || last["template"] != "/abs/job.yaml" || last["queue"] != "gpu" {
		t.Errorf("last stream: got %v, want the job's stream", last)
	}
	if at := last["arrival"].(map[string]any)["at"].([]any); len(at) != 1 || at[0] != "30m0s" {
		t.Errorf("arrival.at: got %v, want [30m0s]", at)
	}
	if d := last["duration"].(map[string]any)["fixed"]; d != "1h0m0s" {
		t.Errorf("duration.fixed: got %v, want 1h0m0s", d)
	}
}

func TestDeriveReplacesEnd(t *testing.T) {
	out, err := derive([]byte(baseScenario), []stream{jobStream()}, 3*time.Hour, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if end := decode(t, out)["end"]; end != "3h0m0s" {
		t.Errorf("end: got %v, want 3h0m0s", end)
	}
}

func TestDeriveSetsEnd(t *testing.T) {
	base := "apiVersion: kueue-sim/v1alpha1\nkind: Scenario\nworkloads: []\n"
	out, err := derive([]byte(base), []stream{jobStream()}, 90*time.Minute, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if end := decode(t, out)["end"]; end != "1h30m0s" {
		t.Errorf("end: got %v, want 1h30m0s", end)
	}
}

func TestDeriveMakesRelativePathsAbsolute(t *testing.T) {
	dir := t.TempDir()
	out, err := derive([]byte(baseScenario), []stream{jobStream()}, time.Hour, dir)
	if err != nil {
		t.Fatal(err)
	}
	m := decode(t, out)
	if got, want := m["cluster"].(map[string]any)["kueueConfig"], filepath.Join(dir, "kueue/config.yaml"); got != want {
		t.Errorf("cluster.kueueConfig: got %v, want %s", got, want)
	}
	ms := m["queues"].(map[string]any)["manifests"].([]any)
	if got, want := ms[0], filepath.Join(dir, "queues.yaml"); got != want {
		t.Errorf("queues.manifests[0]: got %v, want %s", got, want)
	}
	if got, want := ms[1], "/abs/more.yaml"; got != want {
		t.Errorf("queues.manifests[1]: got %v, want %s (absolute, untouched)", got, want)
	}
	ws := m["workloads"].([]any)
	if got, want := ws[0].(map[string]any)["template"], filepath.Join(dir, "jobs/a.yaml"); got != want {
		t.Errorf("workloads[0].template: got %v, want %s", got, want)
	}
	if got, want := ws[1].(map[string]any)["template"], "/abs/b.yaml"; got != want {
		t.Errorf("workloads[1].template: got %v, want %s (absolute, untouched)", got, want)
	}
	inline, ok := ws[2].(map[string]any)["template"].(map[string]any)
	if !ok || inline["kind"] != "Job" || inline["apiVersion"] != "batch/v1" {
		t.Errorf("workloads[2].template: got %v, want the inline Job untouched", ws[2].(map[string]any)["template"])
	}
}

func TestDeriveResolvesAgainstRelativeDir(t *testing.T) {
	out, err := derive([]byte(baseScenario), []stream{jobStream()}, time.Hour, filepath.Join("rel", "dir"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := filepath.Abs(filepath.Join("rel", "dir", "queues.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if got := decode(t, out)["queues"].(map[string]any)["manifests"].([]any)[0]; got != want {
		t.Errorf("queues.manifests[0]: got %v, want %s", got, want)
	}
}

func TestDeriveKeepsComments(t *testing.T) {
	base := "# the team's scenario\napiVersion: kueue-sim/v1alpha1\nkind: Scenario\nseed: 3 # fixed seed\n"
	out, err := derive([]byte(base), []stream{jobStream()}, time.Hour, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"# the team's scenario", "# fixed seed"} {
		if !strings.Contains(string(out), c) {
			t.Errorf("derived scenario lacks the comment %q:\n%s", c, out)
		}
	}
}

func TestDeriveAddsWorkloads(t *testing.T) {
	base := "apiVersion: kueue-sim/v1alpha1\nkind: Scenario\nname: empty\n"
	out, err := derive([]byte(base), []stream{jobStream()}, time.Hour, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m := decode(t, out)
	ws, ok := m["workloads"].([]any)
	if !ok || len(ws) != 1 || ws[0].(map[string]any)["name"] != "forecast" {
		t.Errorf("workloads: got %v, want the job's stream alone", m["workloads"])
	}
	if m["name"] != "empty" {
		t.Errorf("name: got %v, want empty (kept)", m["name"])
	}
}

func TestDeriveRefusesNonMapping(t *testing.T) {
	if _, err := derive([]byte("- a\n- b\n"), []stream{jobStream()}, time.Hour, t.TempDir()); err == nil {
		t.Error("derive of a sequence: got no error")
	}
}

func TestStreamNames(t *testing.T) {
	named := func(names ...string) *scenarios.Scenario {
		s := &scenarios.Scenario{}
		for _, n := range names {
			s.Workloads = append(s.Workloads, scenarios.Stream{Name: n})
		}
		return s
	}
	for _, tc := range []struct {
		taken []string
		n     int
		want  []string
	}{
		{nil, 1, []string{"forecast"}},
		{[]string{"train"}, 1, []string{"forecast"}},
		{[]string{"forecast"}, 1, []string{"forecast-2"}},
		{[]string{"forecast", "forecast-2"}, 1, []string{"forecast-3"}},
		{nil, 3, []string{"forecast", "forecast-1", "forecast-2"}},
		{[]string{"forecast-1"}, 2, []string{"forecast-2", "forecast-2-1"}},
	} {
		if got := streamNames(named(tc.taken...), tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("streamNames with %v, %d: got %v, want %v", tc.taken, tc.n, got, tc.want)
		}
	}
}

func dur(d time.Duration) *metav1.Duration { return &metav1.Duration{Duration: d} }

func TestEndOfWithoutScenarioEnd(t *testing.T) {
	got, err := endOf(&scenarios.Scenario{}, time.Hour, 7*24*time.Hour)
	if err != nil || got != 169*time.Hour {
		t.Errorf("endOf: got %s, %v; want 169h0m0s", got, err)
	}
}

func TestEndOfScenarioEndFirst(t *testing.T) {
	got, err := endOf(&scenarios.Scenario{End: dur(5 * time.Hour)}, time.Hour, 7*24*time.Hour)
	if err != nil || got != 5*time.Hour {
		t.Errorf("endOf: got %s, %v; want 5h0m0s (the scenario's end)", got, err)
	}
}

func TestEndOfHorizonFirst(t *testing.T) {
	got, err := endOf(&scenarios.Scenario{End: dur(100 * time.Hour)}, time.Hour, 2*time.Hour)
	if err != nil || got != 3*time.Hour {
		t.Errorf("endOf: got %s, %v; want 3h0m0s (at plus horizon)", got, err)
	}
}

func TestEndOfAtPastScenarioEnd(t *testing.T) {
	for _, at := range []time.Duration{5 * time.Hour, 6 * time.Hour} {
		if _, err := endOf(&scenarios.Scenario{End: dur(5 * time.Hour)}, at, time.Hour); err == nil {
			t.Errorf("endOf at %s of a scenario ending at 5h: got no error", at)
		}
	}
}

func TestRandom(t *testing.T) {
	stream := func(a scenarios.Arrival, d *scenarios.Distribution) *scenarios.Scenario {
		return &scenarios.Scenario{Workloads: []scenarios.Stream{
			{Name: "fixed", Arrival: scenarios.Arrival{At: []metav1.Duration{{}}}, Duration: &scenarios.Distribution{Fixed: dur(time.Hour)}},
			{Name: "s", Arrival: a, Duration: d},
		}}
	}
	at := scenarios.Arrival{At: []metav1.Duration{{Duration: time.Minute}}}
	every := scenarios.Arrival{Every: dur(time.Minute)}
	fixed := &scenarios.Distribution{Fixed: dur(time.Hour)}
	for _, tc := range []struct {
		name string
		s    *scenarios.Scenario
		want bool
	}{
		{"no streams", &scenarios.Scenario{}, false},
		{"explicit arrivals, fixed duration", stream(at, fixed), false},
		{"every, fixed duration", stream(every, fixed), false},
		{"no duration", stream(at, nil), false},
		{"explicit durations", &scenarios.Scenario{Workloads: []scenarios.Stream{{Durations: []metav1.Duration{{Duration: time.Hour}}}}}, false},
		{"poisson arrival", stream(scenarios.Arrival{Poisson: dur(time.Minute)}, fixed), true},
		{"exponential duration", stream(at, &scenarios.Distribution{Exponential: dur(time.Hour)}), true},
		{"lognormal duration", stream(at, &scenarios.Distribution{LogNormal: &scenarios.LogNormal{Median: metav1.Duration{Duration: time.Hour}, Sigma: 0.5}}), true},
	} {
		if got := random(tc.s); got != tc.want {
			t.Errorf("random (%s): got %v, want %v", tc.name, got, tc.want)
		}
	}
}
