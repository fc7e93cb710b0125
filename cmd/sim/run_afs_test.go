//go:build integration

package main

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

// Admission fair sharing keeps its usage on simulated time: Kueue's
// LocalQueue reconciler samples it at simulated intervals and decays it
// with simulated time (sim/kueuesetup/workload_timers.go). In both
// scenarios team a's old usage has decayed and team b's is fresh when
// both ask for the whole ClusterQueue at once, b first: a runs first. The
// short one decides the same with --realtime; on the long one a Kueue
// that decayed usage on the wall clock would run b first.
//
// The long one also replays with Kueue's reconcilers slowed ("slow"):
// usage is sampled at 880 s and 900 s, the instants b-recent is admitted
// and ends, and what each sample reads must not depend on whether the
// LocalQueue reconciler or the instant's other actions got there first.
// Before the engine ordered them (the wake settles first, wake.go), a
// loaded CI runner once saw b's sample miss b-recent, tie the two teams
// and run b first; slowed, it did so every time. The 1s one samples on
// Kueue's status batch timers, at the scenario's instants; slowed, the
// build that settled only the reconcilers' own waits first ran b first
// there.
func TestAdmissionFairSharingOnSimulatedTime(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		modes    []string
		want     []string
	}{
		{"admission-fair-sharing.yaml", []string{"virtual", "realtime"},
			[]string{"0s team-a/a-old-0", "30s team-b/b-recent-0", "36s team-a/a-next-0", "41s team-b/b-next-0"}},
		{"admission-fair-sharing-1s.yaml", []string{"virtual", "slow"},
			[]string{"0s team-a/a-old-0", "30s team-b/b-recent-0", "36s team-a/a-next-0", "41s team-b/b-next-0"}},
		{"admission-fair-sharing-long.yaml", []string{"virtual", "slow"},
			[]string{"0s team-a/a-old-0", "14m40s team-b/b-recent-0", "15m0s team-a/a-next-0", "15m21s team-b/b-next-0"}},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			for mode, decisions := range replayModes(t, filepath.Join("testdata", tc.scenario), tc.modes...) {
				var got []string
				for _, e := range decisions {
					if e.Type == record.TypeAdmitted {
						got = append(got, e.T.D().String()+" "+e.Workload)
					}
				}
				if !slices.Equal(got, tc.want) {
					t.Errorf("%s run admitted\n  %q\nwant\n  %q", mode, got, tc.want)
				}
			}
		})
	}
}
