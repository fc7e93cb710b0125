package upgrade

import "testing"

func TestStoryString(t *testing.T) {
	s := stories(t, "to")
	for name, want := range map[string]string{
		"team-b/preempted": "arrived 0s, admitted 0s on a100, preempted 40m (InClusterQueue), admitted 50m on a100, finished 2h (Succeeded)",
		"team-b/ready":     "arrived 10m, admitted 10m on h100, evicted 20m (PodsReadyTimeout), admitted 25m on h100, finished 1h25m (Succeeded)",
		"team-a/starved":   "arrived 1h, still pending at the end (couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor a100, 4 more needed)",
		"team-b/refused":   `arrived 5m, refused 5m (admission webhook "vjob.kb.io" denied the request: spec.parallelism: must be at most 8)`,
	} {
		if got := s[name].String(); got != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}

// Within an instant a story keeps the run's order: the preemption before
// the admission that follows it, the admission before the finish.
func TestStoryOrdersAnInstant(t *testing.T) {
	s := newStory().admit(0, "a100").preempt(60, "InCohortReclamation").admit(60, "h100").finish(60, "Failed")
	s.Admissions[1].ClusterQueue = "team-b"
	want := "arrived 0s, admitted 0s on a100, preempted 1m (InCohortReclamation), admitted 1m on h100 in team-b, finished 1m (Failed)"
	if got := s.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestFlavorText(t *testing.T) {
	for _, c := range []struct {
		flavors map[string]string
		want    string
	}{
		{nil, ""},
		{map[string]string{"cpu": "a100", "nvidia.com/gpu": "a100"}, "a100"},
		{map[string]string{"cpu": "default", "nvidia.com/gpu": "a100"}, "cpu=default, nvidia.com/gpu=a100"},
	} {
		if got := flavorText(c.flavors); got != c.want {
			t.Errorf("flavorText(%v) = %q, want %q", c.flavors, got, c.want)
		}
	}
}
