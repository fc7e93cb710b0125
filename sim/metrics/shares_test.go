package metrics

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

var approx = cmpopts.EquateApprox(0, 1e-9)

// instantLine is one ShareInstant as a line: from-to, then each member as
// name=share, "?" when not judged, "+N" waiting; then the largest gap.
func instantLine(in ShareInstant) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%g-%g", in.From.Seconds(), in.To.Seconds())
	for i, m := range in.Members {
		fmt.Fprintf(&b, " %s=%d", m.Name, m.Share)
		if !m.Judged() {
			b.WriteString("?")
		}
		if m.Waiting > 0 {
			var names []string
			for _, w := range in.WaitingWorkloads(i) {
				names = append(names, w.Name)
			}
			fmt.Fprintf(&b, "+%d(%s)", m.Waiting, strings.Join(names, ","))
		}
	}
	if g := in.Gaps(); len(g) > 0 {
		fmt.Fprintf(&b, " gap %s<%s by %g", in.Members[g[0].Low].Name, in.Members[g[0].High].Name, g[0].Size)
	}
	return b.String()
}

// hierarchy: cohort root holds ClusterQueue prod and Cohort research, which
// holds r1 and r2; lendable 12 GPUs. r1 borrows 4 from 0 (research's share
// 1000·4/12 = 334, and research's 167 with weight 2); prod's p-1 waits
// from 300 until it reclaims its quota at 600, when r1's big waits in
// turn; r2's CPU-only job waits all along.
func hierarchy() *record.Run {
	l := newLog(12, map[string]float64{"prod": 4, "r1": 4, "r2": 4}, map[string]string{"prod": "root", "r1": "research", "r2": "research"})
	l.header().CohortParents = map[string]string{"research": "root"}
	l.header().CohortWeights = map[string]float64{"research": 2}
	return l.arrive(0, "r1", "big", 8).admit(0, "r1", "big", 8).
		share(0, "prod", 0).share(0, "r1", 334).share(0, "r2", 0).cohortShare(0, "research", 167).
		arriveCPU(0, "r2", "cpu-job", 4).
		arrive(300, "prod", "p-1", 4).
		preempt(600, "r1", "big").admit(600, "prod", "p-1", 4).cohortShare(600, "research", 0).share(600, "r1", 0).
		end(900)
}

func TestSweepCohort(t *testing.T) {
	for _, tc := range []struct {
		name, cohort, resource string
		run                    *record.Run
		want                   []string
	}{
		{"starved: team-b waits at 0 beside team-a's 500", "gpus", "", starved(), []string{
			"0-600 team-a=500 team-b=0",
			"600-1800 team-a=500 team-b=0+1(team-b/b-1) gap team-b<team-a by 500",
			"1800-3600 team-a=0 team-b=0",
		}},
		{"a share Kueue had not updated yet is not judged", "gpus", "", reclaimedLate(), []string{
			"0-600 team-a=500 team-b=0",
			"600-900 team-a=500?+1(team-a/a-2) team-b=0",
			"900-1200 team-a=0+1(team-a/a-2) team-b=0+1(team-b/b-2)",
		}},
		{"hierarchy: a child cohort is one member; resource filter", "root", gpu, hierarchy(), []string{
			"0-300 prod=0 research=167",
			"300-600 prod=0+1(prod/p-1) research=167 gap prod<research by 167",
			"600-900 prod=0 research=0+1(r1/big)",
		}},
		{"hierarchy without filter counts the CPU job", "root", "", hierarchy(), []string{
			"0-300 prod=0 research=167+1(r2/cpu-job)",
			"300-600 prod=0+1(prod/p-1) research=167+1(r2/cpu-job) gap prod<research by 167",
			"600-900 prod=0 research=0+2(r1/big,r2/cpu-job)",
		}},
		{"inside the child cohort", "research", gpu, hierarchy(), []string{
			"0-300 r1=334 r2=0",
			"300-600 r1=334 r2=0",
			"600-900 r1=0+1(r1/big) r2=0",
		}},
		{"no such cohort", "nope", "", starved(), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			SweepCohort(tc.run, NewTimeline(tc.run), tc.cohort, tc.resource, func(in ShareInstant) { got = append(got, instantLine(in)) })
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("instants (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFairness(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  *record.Run
		want []CohortFairness
	}{
		// team-a held 500 for 1800 of 3600 s: average 250. team-b waited
		// 1200 s at 0, 500 below team-a.
		{"starved", starved(), []CohortFairness{{Cohort: "gpus", SharesObserved: true, WaitingSeconds: 1200,
			MaxGap: 500, MaxGapAtSeconds: 600, MaxGapLow: "team-b", MaxGapHigh: "team-a", MeanGap: 500,
			Members: []MemberFairness{
				{Kind: KindClusterQueue, Name: "team-a", Weight: 1, AverageShare: 250, PeakShare: 500},
				{Kind: KindClusterQueue, Name: "team-b", Weight: 1, WaitingSeconds: 1200, WorstGap: 500},
			}}}},
		// team-a's 500 over [600,900) disagrees with its holding: those
		// 300 s are unjudged, and no gap is taken with team-a.
		{"reclaimed, status late", reclaimedLate(), []CohortFairness{{Cohort: "gpus", SharesObserved: true, WaitingSeconds: 600,
			UnjudgedSeconds: 300,
			Members: []MemberFairness{
				{Kind: KindClusterQueue, Name: "team-a", Weight: 1, WaitingSeconds: 600, AverageShare: 500.0 * 900 / 1200,
					AverageShareWaiting: 500.0 * 300 / 600, PeakShare: 500},
				{Kind: KindClusterQueue, Name: "team-b", Weight: 1, WaitingSeconds: 300},
			}}}},
		{"hierarchy", hierarchy(), []CohortFairness{
			{Cohort: "research", SharesObserved: true, WaitingSeconds: 900, MeanGap: 334.0 * 600 / 900, MaxGap: 334,
				MaxGapLow: "r2", MaxGapHigh: "r1",
				Members: []MemberFairness{
					{Kind: KindClusterQueue, Name: "r1", Weight: 1, WaitingSeconds: 300, AverageShare: 334.0 * 600 / 900, PeakShare: 334},
					{Kind: KindClusterQueue, Name: "r2", Weight: 1, WaitingSeconds: 900, WorstGap: 334},
				}},
			{Cohort: "root", SharesObserved: true, WaitingSeconds: 900, MeanGap: 167.0 * 300 / 900, MaxGap: 167, MaxGapAtSeconds: 300,
				MaxGapLow: "prod", MaxGapHigh: "research",
				Members: []MemberFairness{
					{Kind: KindClusterQueue, Name: "prod", Weight: 1, WaitingSeconds: 300, WorstGap: 167},
					{Kind: KindCohort, Name: "research", Weight: 2, WaitingSeconds: 900, AverageShare: 167.0 * 600 / 900,
						AverageShareWaiting: 167.0 * 600 / 900, PeakShare: 167},
				}},
		}},
		{"no shares in the log", func() *record.Run {
			return newLog(8, map[string]float64{"a": 4, "b": 4}, map[string]string{"a": "c", "b": "c"}).
				arrive(0, "a", "x", 8).admit(0, "a", "x", 8).end(60)
		}(), []CohortFairness{{Cohort: "c", Members: []MemberFairness{
			{Kind: KindClusterQueue, Name: "a", Weight: 1}, {Kind: KindClusterQueue, Name: "b", Weight: 1}}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Fairness(tc.run, NewTimeline(tc.run))
			if diff := cmp.Diff(tc.want, got, approx); diff != "" {
				t.Errorf("fairness (-want +got):\n%s", diff)
			}
		})
	}
}
