package settle

import (
	"context"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	testingclock "k8s.io/utils/clock/testing"
)

// plane is a fake control plane for the settle's state machine: an etcd
// revision, Kueue's pending gauge and its inadmissible cycles, all set by
// the test between polls, on a fake wall clock.
type plane struct {
	clock   *testingclock.FakeClock
	began   time.Time
	rev     int64
	pending float64 // Kueue's active workloads in ClusterQueue cq
	cycles  float64 // Kueue's inadmissible scheduling cycles so far
	decided int64   // decisions observed so far
	polls   int
}

func newPlane() *plane {
	began := time.Unix(1_000_000, 0)
	return &plane{clock: testingclock.NewFakeClock(began), began: began}
}

// elapsed is the fake wall time since the plane began.
func (p *plane) elapsed() time.Duration { return p.clock.Since(p.began) }

func (p *plane) gatherer() prometheus.Gatherer {
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "kueue_pending_workloads"}, []string{"cluster_queue", "status"})
	reg := prometheus.NewRegistry()
	reg.MustRegister(g)
	return prometheus.GathererFunc(func() ([]*dto.MetricFamily, error) {
		g.WithLabelValues("cq", "active").Set(p.pending)
		return reg.Gather()
	})
}

// config is a Settler's Config on p, with the retry rule on (Progress,
// Attempts) and no other hook.
func (p *plane) config(t Timings) Config {
	return Config{Timings: t, Clock: p.clock, Gatherer: p.gatherer(), Index: NewIndex(nil),
		Revision: func(context.Context) (int64, error) { return p.rev, nil },
		Progress: func() int64 { return p.decided },
		Attempts: func() (float64, error) { return p.cycles, nil }}
}

// testTimings are DefaultTimings with a shorter timeout.
func testTimings() Timings {
	t := DefaultTimings()
	t.Timeout = 10 * time.Second
	return t
}

// drive runs one wait of s on p poll by poll: before each poll (the
// first is poll 0) it calls before, and between polls it moves the fake
// clock by the wait's interval. It returns what the wait returned.
func (p *plane) drive(t *testing.T, s *Settler, also func() Busy, before func(poll int)) Busy {
	t.Helper()
	w := s.begin(also)
	for p.polls = 0; p.polls < 100_000; p.polls++ {
		if before != nil {
			before(p.polls)
		}
		busy, done, err := w.poll(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if done {
			p.polls++
			return busy
		}
		p.clock.Step(w.interval)
	}
	t.Fatal("the wait never ended")
	return Busy{}
}
