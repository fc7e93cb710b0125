package metrics

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// In starved, team-a holds 8 GPUs on [0,1800) (4 of them team-b's unused
// quota) and 4 on [1800,3600); team-b holds 0, then 4.
func TestTimelineSegments(t *testing.T) {
	run := starved()
	tl := NewTimeline(run)
	var got []string
	for _, s := range tl.Segments {
		got = append(got, fmt.Sprintf("%g-%g a100=%g team-a=%g team-b=%g waiting b=%g(%g GPUs)", s.From.Seconds(), s.To.Seconds(),
			tl.FlavorAt(s, FR{"a100", gpu}), tl.CQAt(s, GFR{"team-a", "a100", gpu}), tl.CQAt(s, GFR{"team-b", "a100", gpu}),
			tl.PendingNAt(s, "team-b"), tl.PendingAt(s, "team-b", gpu)))
	}
	want := []string{
		"0-600 a100=8 team-a=8 team-b=0 waiting b=0(0 GPUs)",
		"600-1800 a100=8 team-a=8 team-b=0 waiting b=1(4 GPUs)",
		"1800-3600 a100=8 team-a=4 team-b=4 waiting b=0(0 GPUs)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("segments (-want +got):\n%s", diff)
	}
}

func TestUsage(t *testing.T) {
	run := starved()
	tl := NewTimeline(run)
	if diff := cmp.Diff([]FlavorUsage{{Flavor: "a100", Resource: gpu, Capacity: 8, Quota: 8, UsedHours: 8, AvailableHours: 8,
		Utilization: 1, AverageUsed: 8, PeakUsed: 8}}, FlavorUsages(run, tl), approx); diff != "" {
		t.Errorf("flavors (-want +got):\n%s", diff)
	}
	want := []ClusterQueue{
		{Name: "team-a", Cohort: "gpus", Weight: 1, Workloads: 2, Admissions: 2, Resources: []QuotaUsage{{Flavor: "a100", Resource: gpu,
			Nominal: 4, UsedHours: 6, AverageUsed: 6, PeakUsed: 8, BorrowedHours: 2, PeakBorrowed: 4}}},
		{Name: "team-b", Cohort: "gpus", Weight: 1, Workloads: 1, Admissions: 1, Resources: []QuotaUsage{{Flavor: "a100", Resource: gpu,
			Nominal: 4, UsedHours: 2, AverageUsed: 2, PeakUsed: 4, LentHours: 2, PeakLent: 4}}},
	}
	if diff := cmp.Diff(want, ClusterQueues(run, tl), approx); diff != "" {
		t.Errorf("ClusterQueues (-want +got):\n%s", diff)
	}
}

func TestWaits(t *testing.T) {
	run := starved()
	waits := Waits(run)
	want := []WaitStats{
		{Workloads: 3, Mean: 400, P50: 0, P90: 1200, P99: 1200, Max: 1200},
		{Team: "team-a", Workloads: 2},
		{Team: "team-b", Workloads: 1, Mean: 1200, P50: 1200, P90: 1200, P99: 1200, Max: 1200},
		{Kind: "Workload", Workloads: 3, Mean: 400, P50: 0, P90: 1200, P99: 1200, Max: 1200},
	}
	if diff := cmp.Diff(want, WaitGroups(waits), approx); diff != "" {
		t.Errorf("wait groups (-want +got):\n%s", diff)
	}
	// Refused workloads have no wait; one never admitted waits to the end.
	run = newLog(4, map[string]float64{"q": 4}, nil).
		arrive(0, "q", "big", 8).refuse(10, "q", "no").arrive(10, "q", "no", 1).end(100)
	if diff := cmp.Diff([]Wait{{Workload: "q/big", Team: "q", Stream: "big", Kind: "Workload", Admitted: -1, Seconds: 100}}, Waits(run)); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
}

func TestQuantile(t *testing.T) {
	xs := []float64{1, 2, 3, 4}
	for _, tc := range []struct{ p, want float64 }{{0.25, 1}, {0.26, 2}, {0.5, 2}, {0.75, 3}, {0.9, 4}, {1, 4}} {
		if got := Quantile(tc.p, xs); got != tc.want {
			t.Errorf("Quantile(%g) = %g, want %g", tc.p, got, tc.want)
		}
	}
}

func TestNominalShortfalls(t *testing.T) {
	type short struct {
		CQ       string
		From, To float64
		Open     bool
		Waiting  []string
		Used     map[string]float64
	}
	for _, tc := range []struct {
		name string
		run  *record.Run
		want []short
	}{
		{"starved: team-b's b-1 fits its unused 4 GPUs from 600 to 1800", starved(), []short{
			{"team-b", 600, 1800, false, []string{"team-b/b-1"}, map[string]float64{gpu: 0}}}},
		{"reclaimed at once: nothing waiting fits", reclaimedLate(), nil},
		{"the run ends first", func() *record.Run {
			return newLog(8, map[string]float64{"team-a": 4, "team-b": 4}, map[string]string{"team-a": "gpus", "team-b": "gpus"}).
				arrive(0, "team-a", "a-1", 8).admit(0, "team-a", "a-1", 8).
				arrive(60, "team-b", "b-1", 2).arrive(60, "team-b", "b-2", 4).arrive(60, "team-b", "b-3", 5).end(600)
		}(), []short{{"team-b", 60, 600, true, []string{"team-b/b-1", "team-b/b-2"}, map[string]float64{gpu: 0}}}},
		// prod's p-1 fits from 300 until it is admitted at 600; r1's big
		// asks for more than its nominal quota and r2's CPU job for a
		// resource r2 has no quota of.
		{"more than nominal never counts", hierarchy(), []short{
			{"prod", 300, 600, false, []string{"prod/p-1"}, map[string]float64{gpu: 0}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []short
			for _, s := range NominalShortfalls(tc.run, NewTimeline(tc.run)) {
				var names []string
				for _, w := range s.Waiting {
					names = append(names, w.Name)
				}
				got = append(got, short{s.ClusterQueue, s.From.Seconds(), s.To.Seconds(), s.Open, names, s.Used})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("shortfalls (-want +got):\n%s", diff)
			}
		})
	}
}
