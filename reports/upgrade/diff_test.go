package upgrade

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kueue-sim/kueue-sim/reports"
	"github.com/kueue-sim/kueue-sim/sim/record"
)

// stories reads the stories of testdata/<dir>/events.jsonl.
func stories(t *testing.T, dir string) map[string]Story {
	t.Helper()
	run, _, err := reports.LoadEvents(filepath.Join("testdata", dir, reports.EventsFile))
	if err != nil {
		t.Fatal(err)
	}
	return Stories(run)
}

// The testdata runs hold one workload of each kind of difference, and
// three decided alike: preempted in both, finished alike, refused in both.
func TestDiffWorkloadsOfTestdata(t *testing.T) {
	diffs := DiffWorkloads(stories(t, "from"), stories(t, "to"), "v0.17.0", "v0.19.2")
	got := map[string][]string{}
	var order []string
	for _, d := range diffs {
		got[d.Workload] = d.Texts()
		order = append(order, d.Workload)
	}
	want := map[string][]string{
		"team-a/flavor":  {"flavor nvidia.com/gpu: a100 -> h100"},
		"team-b/ready":   {"evicted (PodsReadyTimeout) under v0.19.2 only", "admitted 2 times vs 1"},
		"team-a/late":    {"admitted 35m later (waited 1h5m vs 30m)"},
		"team-a/starved": {"never admitted under v0.19.2"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	// Sorted by when the runs first part: 0s, 20m, 30m, 1h10m.
	if diff := cmp.Diff([]string{"team-a/flavor", "team-b/ready", "team-a/late", "team-a/starved"}, order); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

// story is a test story of a workload in team-a arriving at 0.
type story struct{ Story }

func newStory() *story {
	return &story{Story{Workload: "team-a/w", Team: "team-a", ClusterQueue: "team-a"}}
}

func secs(s int) record.Duration { return record.Duration(time.Duration(s) * time.Second) }

func (s *story) admit(t int, flavor string) *story {
	s.Admissions = append(s.Admissions, Admission{T: secs(t), ClusterQueue: "team-a", Flavors: map[string]string{"nvidia.com/gpu": flavor}})
	return s
}

func (s *story) preempt(t int, reason string) *story {
	s.Preemptions = append(s.Preemptions, Moment{T: secs(t), Reason: reason})
	return s
}

func (s *story) evict(t int, reason string) *story {
	s.Evictions = append(s.Evictions, Moment{T: secs(t), Reason: reason})
	return s
}

func (s *story) finish(t int, reason string) *story {
	s.Finished = &Moment{T: secs(t), Reason: reason}
	return s
}

func (s *story) refuse(msg string) *story {
	s.Refused = &Moment{Reason: "Forbidden", Message: msg}
	return s
}

func (s *story) pending() *story {
	s.PendingAtEnd = true
	return s
}

func TestChanges(t *testing.T) {
	cases := []struct {
		name     string
		from, to *story
		want     []string
	}{
		{"alike", newStory().admit(0, "a100").finish(60, "Succeeded"), newStory().admit(0, "a100").finish(60, "Succeeded"), nil},
		{"absent under the new release", newStory(), nil, []string{"absent under v2"}},
		{"absent under the old release", nil, newStory(), []string{"absent under v1"}},
		{"earlier", newStory().admit(3600, "a100"), newStory().admit(90, "a100"), []string{"admitted 58m30s earlier (waited 1m30s vs 1h)"}},
		{"admitted under the new release only", newStory().pending(), newStory().admit(600, "a100"), []string{"admitted under v2 only (waited 10m)"}},
		{"never admitted hides what follows", newStory().admit(0, "a100").preempt(60, "InClusterQueue").finish(600, "Failed"), newStory().pending(),
			[]string{"never admitted under v2"}},
		{"refused under the new release only hides the admission", newStory().admit(0, "a100"), newStory().refuse("denied"),
			[]string{"refused under v2 only: denied"}},
		{"refused alike", newStory().refuse("denied"), newStory().refuse("denied"), nil},
		{"refused for another reason", newStory().refuse("old"), newStory().refuse("new"), []string{"refused for another reason: new vs old"}},
		{"preempted twice under the new release only",
			newStory().admit(0, "a100").finish(600, "Succeeded"),
			newStory().admit(0, "a100").preempt(60, "InClusterQueue").admit(120, "a100").preempt(180, "InClusterQueue").admit(240, "a100").finish(840, "Succeeded"),
			[]string{"preempted 2 times (InClusterQueue ×2) under v2 only", "admitted 3 times vs 1"}},
		{"preempted for another reason",
			newStory().admit(0, "a100").preempt(60, "InClusterQueue").admit(120, "a100"),
			newStory().admit(0, "a100").preempt(60, "InCohortReclamation").admit(120, "a100"),
			[]string{"preempted for InCohortReclamation vs InClusterQueue"}},
		{"preempted more often",
			newStory().admit(0, "a100").preempt(60, "InClusterQueue").admit(120, "a100"),
			newStory().admit(0, "a100").preempt(60, "InClusterQueue").admit(120, "a100").preempt(180, "InClusterQueue").admit(240, "a100"),
			[]string{"preempted 2 times vs 1 (InClusterQueue)", "admitted 3 times vs 2"}},
		{"evicted under the old release only",
			newStory().admit(0, "a100").evict(300, "PodsReadyTimeout").admit(400, "a100"),
			newStory().admit(0, "a100"),
			[]string{"evicted (PodsReadyTimeout) under v1 only", "admitted 1 time vs 2"}},
		{"admitted again later", newStory().admit(0, "a100").preempt(60, "InClusterQueue").admit(120, "a100"),
			newStory().admit(0, "a100").preempt(60, "InClusterQueue").admit(3720, "a100"),
			[]string{"admission 2: admitted 1h later (at 1h2m vs 2m)"}},
		{"second admission on another flavor", newStory().admit(0, "a100").preempt(60, "InClusterQueue").admit(120, "a100"),
			newStory().admit(0, "a100").preempt(60, "InClusterQueue").admit(120, "h100"),
			[]string{"admission 2: flavor nvidia.com/gpu: a100 -> h100"}},
		{"failed", newStory().admit(0, "a100").finish(60, "Succeeded"), newStory().admit(0, "a100").finish(60, "Failed"), []string{"finished Failed vs Succeeded"}},
		{"still running at the end", newStory().admit(0, "a100").finish(60, "Succeeded"), newStory().admit(0, "a100"), []string{"finished (Succeeded) under v1 only"}},
		{"pending again at the end", newStory().admit(0, "a100").preempt(60, "InClusterQueue").admit(120, "a100"),
			newStory().admit(0, "a100").preempt(60, "InClusterQueue").admit(120, "a100").preempt(180, "InClusterQueue").pending(),
			[]string{"preempted 2 times vs 1 (InClusterQueue)", "pending again at the end under v2 only"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			from, to := map[string]Story{}, map[string]Story{}
			if c.from != nil {
				from["team-a/w"] = c.from.Story
			}
			if c.to != nil {
				to["team-a/w"] = c.to.Story
			}
			diffs := DiffWorkloads(from, to, "v1", "v2")
			var got []string
			if len(diffs) > 0 {
				got = diffs[0].Texts()
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("changes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTally(t *testing.T) {
	diffs := DiffWorkloads(stories(t, "from"), stories(t, "to"), "v0.17.0", "v0.19.2")
	want := []string{"1 admitted in one run only", "1 admitted at another time", "1 admitted onto another flavor or ClusterQueue",
		"1 admitted another number of times", "1 evicted differently"}
	if diff := cmp.Diff(want, Tally(diffs)); diff != "" {
		t.Errorf("tally (-want +got):\n%s", diff)
	}
}
