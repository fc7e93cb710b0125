package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// kueuePending is a registry with Kueue's pending-workloads gauge at n
// active workloads in ClusterQueue cq.
func kueuePending(n float64) prometheus.Gatherer {
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "kueue_pending_workloads"}, []string{"cluster_queue", "status"})
	g.WithLabelValues("cq", "active").Set(n)
	reg := prometheus.NewRegistry()
	reg.MustRegister(g)
	return reg
}

func TestSettleMovesOnWhenKueueRetriesWithoutProgress(t *testing.T) {
	for name, tc := range map[string]struct {
		pending  float64
		progress func() func() int64
		// unseen, when set, stands for the informers lagging behind
		// Kueue's own writes now and then.
		unseen func() func(context.Context) (string, error)
		// attempts, when set, counts Kueue's inadmissible cycles.
		attempts func() func() (float64, error)
		wantBusy bool
	}{
		"Kueue keeps workloads active but runs no cycle (a starved machine): still busy": {
			pending: 1, wantBusy: true, progress: func() func() int64 { return func() int64 { return 7 } },
			attempts: func() func() (float64, error) { return func() (float64, error) { return 40, nil } },
		},
		"Kueue keeps retrying a workload it cannot admit: quiet": {
			pending: 1, progress: func() func() int64 { return func() int64 { return 7 } },
			attempts: func() func() (float64, error) {
				var n float64
				return func() (float64, error) { n++; return n, nil }
			},
		},
		"Kueue flips a pending workload's message and the informers lag behind it now and then: quiet": {
			pending: 1, progress: func() func() int64 { return func() int64 { return 7 } },
			unseen: func() func(context.Context) (string, error) {
				var n int
				return func(context.Context) (string, error) {
					if n++; n%3 == 0 {
						return "workloads.kueue.x-k8s.io", nil
					}
					return "", nil
				}
			},
		},
		"Kueue keeps workloads active and decides nothing: quiet": {
			pending: 3, progress: func() func() int64 { return func() int64 { return 7 } },
		},
		"Kueue keeps deciding: still busy when the settle gives up": {
			pending: 3, wantBusy: true,
			progress: func() func() int64 { var n int64; return func() int64 { n++; return n } },
		},
		"nothing pending: quiet": {
			progress: func() func() int64 { return func() int64 { return 0 } },
		},
	} {
		t.Run(name, func(t *testing.T) {
			s := &settler{poll: time.Millisecond, rounds: settleRounds, timeout: 500 * time.Millisecond, tryGrace: 20 * time.Millisecond,
				gatherer: kueuePending(tc.pending), index: newBusyIndex(), informerQuiet: true,
				progress: tc.progress(), waits: map[string]int{}}
			if tc.attempts != nil {
				s.attempts = tc.attempts()
			}
			if tc.unseen != nil {
				s.unseen = tc.unseen()
			}
			busy, err := s.wait(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := busy != ""; got != tc.wantBusy {
				t.Errorf("wait() = %q, want busy %v (polls by reason: %v)", busy, tc.wantBusy, s.waits)
			}
			// Moving on while Kueue retried leaves one note for the event
			// log, naming Kueue's pending gauge.
			notes := s.takeRetriedNotes()
			if want := !tc.wantBusy && tc.pending > 0; (len(notes) == 1) != want || len(notes) > 1 {
				t.Errorf("notes = %q, want one: %v", notes, want)
			}
			if gauge := fmt.Sprintf("Kueue has %g workloads to try in ClusterQueue cq, ", tc.pending); len(notes) == 1 && !strings.HasPrefix(notes[0], gauge) {
				t.Errorf("note = %q, want it to start with Kueue's pending gauge", notes[0])
			}
		})
	}
}

func TestDraining(t *testing.T) {
	for _, tc := range []struct {
		was, now string
		want     bool
	}{
		{kueueTrying + " 34 workloads to try in ClusterQueue fifo", kueueTrying + " 30 workloads to try in ClusterQueue fifo", true},
		{kueueTrying + " 30 workloads to try in ClusterQueue fifo", kueueTrying + " 30 workloads to try in ClusterQueue fifo", false},
		{kueueTrying + " 30 workloads to try in ClusterQueue fifo", kueueTrying + " 31 workloads to try in ClusterQueue fifo", false},
		{kueueTrying + " 30 workloads to try in ClusterQueue fifo", kueueTrying + " 2 workloads to try in ClusterQueue pair", false},
		{etcdChanging, kueueTrying + " 2 workloads to try in ClusterQueue fifo", false},
		{kueueTrying + " 3 workloads to try in ClusterQueue fifo", etcdChanging, false},
	} {
		if got := draining(tc.was, tc.now); got != tc.want {
			t.Errorf("draining(%q, %q) = %v, want %v", tc.was, tc.now, got, tc.want)
		}
	}
}
