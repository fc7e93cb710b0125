package settle

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
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

// stillRevision is an etcd whose revision never moves.
func stillRevision(context.Context) (int64, error) { return 1, nil }

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
			cfg := Config{Timings: Timings{Poll: time.Millisecond, Rounds: DefaultTimings().Rounds, Timeout: 500 * time.Millisecond, TryGrace: 20 * time.Millisecond},
				Gatherer: kueuePending(tc.pending), Index: NewIndex(nil), Revision: stillRevision,
				Progress: tc.progress()}
			if tc.attempts != nil {
				cfg.Attempts = tc.attempts()
			}
			if tc.unseen != nil {
				cfg.Unseen = tc.unseen()
			}
			s := New(cfg)
			busy, err := s.Wait(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := !busy.IsZero(); got != tc.wantBusy {
				t.Errorf("wait() = %q, want busy %v (polls by reason: %v)", busy, tc.wantBusy, s.waits)
			}
			// Moving on while Kueue retried leaves one note for the event
			// log, naming Kueue's pending gauge.
			notes := s.TakeRetriedNotes()
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
		was, now float64
		want     bool
	}{
		{34, 30, true},
		{30, 30, false},
		{30, 31, false},
	} {
		if got := draining(tc.was, tc.now); got != tc.want {
			t.Errorf("draining(%v, %v) = %v, want %v", tc.was, tc.now, got, tc.want)
		}
	}
}

// drainingQueues is Kueue's pending gauge for ClusterQueues a and b whose
// active workloads Kueue sets aside one every step of wall time, a's
// first: the reason the settle names moves from a (emptied) to b (fuller).
func drainingQueues(a, b float64, step time.Duration) prometheus.Gatherer {
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "kueue_pending_workloads"}, []string{"cluster_queue", "status"})
	reg := prometheus.NewRegistry()
	reg.MustRegister(g)
	began := time.Now()
	return prometheus.GathererFunc(func() ([]*dto.MetricFamily, error) {
		gone := float64(time.Since(began) / step)
		g.WithLabelValues("a", "active").Set(max(a-gone, 0))
		g.WithLabelValues("b", "active").Set(max(b-max(gone-a, 0), 0))
		return reg.Gather()
	})
}

// TestSettleWaitsWhileQueuesDrainInTurn: Kueue setting aside the workloads
// of one ClusterQueue, then another's, a slow machine taking longer than
// the settle's grace for each, is progress to the end: comparing the
// first ClusterQueue's count with the next one's would move on mid-drain.
func TestSettleWaitsWhileQueuesDrainInTurn(t *testing.T) {
	// b takes five graces to drain, one workload a tenth of a grace.
	s := New(Config{Timings: Timings{Poll: time.Millisecond, Rounds: DefaultTimings().Rounds, Timeout: 5 * time.Second, TryGrace: 50 * time.Millisecond},
		Gatherer: drainingQueues(2, 50, 5*time.Millisecond), Index: NewIndex(nil), Revision: stillRevision,
		Progress: func() int64 { return 7 }})
	waitDrained(t, s)
}

// TestSettleWaitsWhileQueuesDrainWriting: Kueue writes a pending message
// for every workload it sets aside, so while it drains, etcd's revision
// moves at most polls and the settle seldom reads the gauge. A settle
// that counted a drain only on polls that read the gauge would move on
// mid-drain after a grace of writes, and two 5k baseline runs would write
// different decisions.jsonl (one moving on with workloads left to try in
// a ClusterQueue, the other draining them).
func TestSettleWaitsWhileQueuesDrainWriting(t *testing.T) {
	const step = 5 * time.Millisecond
	const a, b = 2, 50 // b drains in five graces
	began := time.Now()
	var rev int64
	s := New(Config{Timings: Timings{Poll: time.Millisecond, Rounds: DefaultTimings().Rounds, Timeout: 5 * time.Second, TryGrace: 50 * time.Millisecond},
		Gatherer: drainingQueues(a, b, step), Index: NewIndex(nil),
		Revision: func(context.Context) (int64, error) {
			// Quiet long enough at first for the settle to read the
			// gauge, then a write at every poll until the queues drained.
			if d := time.Since(began); d > 4*time.Millisecond && d < (a+b+1)*step {
				rev++
			}
			return rev, nil
		},
		Progress: func() int64 { return 7 }})
	waitDrained(t, s)
	if s.waits[Busy{Kind: EtcdChanging}.reasonKind()] == 0 {
		t.Errorf("etcd never changed (polls by reason: %v): the test no longer tests its case", s.waits)
	}
}

// waitDrained waits for s to settle and checks it did so once Kueue's
// queues drained, not by moving on.
func waitDrained(t *testing.T, s *Settler) {
	t.Helper()
	busy, err := s.Wait(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !busy.IsZero() {
		t.Fatalf("wait() = %q, want quiet once both queues drained", busy)
	}
	if notes := s.TakeRetriedNotes(); len(notes) > 0 {
		t.Errorf("the settle moved on while Kueue drained: %q (polls by reason: %v)", notes, s.waits)
	}
	if s.active != 0 {
		t.Errorf("settled with %v workloads left to try", s.active)
	}
}
