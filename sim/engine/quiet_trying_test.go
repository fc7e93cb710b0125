package engine

import (
	"context"
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
		wantBusy bool
	}{
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
			busy, err := s.wait(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := busy != ""; got != tc.wantBusy {
				t.Errorf("wait() = %q, want busy %v (polls by reason: %v)", busy, tc.wantBusy, s.waits)
			}
		})
	}
}
