package settle

import (
	"strings"
	"testing"
	"time"
)

const movedOn = "Kueue retried without progress, moved on"

// Kueue keeps one workload active, decides nothing and runs a cycle at
// every poll: once the grace has passed, the wait moves on, leaving one
// note that names Kueue's pending gauge.
func TestRetryMovesOnAfterGraceAndAttempts(t *testing.T) {
	p := newPlane()
	p.pending = 1
	s := New(p.config(testTimings()))
	busy := p.drive(t, s, nil, func(int) { p.cycles++ })
	if !busy.IsZero() {
		t.Fatalf("wait = %q, want it to move on", busy)
	}
	grace := DefaultTimings().TryGrace
	if p.elapsed() < grace || p.elapsed() > grace+10*DefaultTimings().Poll {
		t.Errorf("moved on after %s, want just past the grace (%s)", p.elapsed(), grace)
	}
	// Each of the quiet rounds it takes to end is a poll moved on.
	if got := s.Waits()[movedOn]; got != DefaultTimings().Rounds {
		t.Errorf("waits = %v, want %d polls moved on", s.Waits(), DefaultTimings().Rounds)
	}
	notes := s.TakeRetriedNotes()
	want := "Kueue has 1 workloads to try in ClusterQueue cq, and its scheduling cycles admitted, preempted and evicted nothing; the step moved on, as nothing changes before simulated time does"
	if len(notes) != 1 || notes[0] != want {
		t.Errorf("notes = %q, want [%q]", notes, want)
	}
	if notes := s.TakeRetriedNotes(); len(notes) != 0 {
		t.Errorf("notes handed over twice: %q", notes)
	}
}

// Time alone is no proof that Kueue is stuck: without tryAttempts
// inadmissible cycles the wait stays busy until it gives up.
func TestRetryWaitsForKueueCycles(t *testing.T) {
	p := newPlane()
	p.pending = 1
	s := New(p.config(testTimings()))
	busy := p.drive(t, s, nil, func(poll int) {
		if poll%500 == 0 && p.cycles < tryAttempts-1 {
			p.cycles++
		}
	})
	if busy.Kind != KueueTrying || busy.String() != "Kueue has 1 workloads to try in ClusterQueue cq" {
		t.Fatalf("wait = %q, want Kueue's pending gauge when it gives up", busy)
	}
	if s.Waits()[movedOn] != 0 || len(s.TakeRetriedNotes()) != 0 {
		t.Errorf("moved on without Kueue's cycles: %v", s.Waits())
	}
}

// A decision starts the grace over: Kueue is making progress.
func TestRetryDecisionStartsOver(t *testing.T) {
	p := newPlane()
	p.pending = 1
	s := New(p.config(testTimings()))
	busy := p.drive(t, s, nil, func(poll int) {
		p.cycles++
		if poll%50 == 0 { // a decision every half grace
			p.decided++
		}
	})
	if busy.Kind != KueueTrying {
		t.Fatalf("wait = %q, want busy until the timeout", busy)
	}
	if s.Waits()[movedOn] != 0 {
		t.Errorf("moved on while Kueue decided: %v", s.Waits())
	}
}

// Kueue's writes while it retries (etcd's revision moving) do not start
// the grace over, and the note says the step moved on while Kueue wrote.
func TestRetryNoteSaysKueueWrote(t *testing.T) {
	p := newPlane()
	p.pending = 2
	s := New(p.config(testTimings()))
	busy := p.drive(t, s, nil, func(poll int) {
		p.cycles++
		if poll > 3 && poll%2 == 0 {
			p.rev++
		}
	})
	if !busy.IsZero() {
		t.Fatalf("wait = %q, want it to move on", busy)
	}
	notes := s.TakeRetriedNotes()
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "Kueue has 2 workloads to try in ClusterQueue cq, ") || !strings.Contains(notes[0], " while writing to the API ") {
		t.Errorf("notes = %q, want one naming the gauge and Kueue's writes", notes)
	}
}

// Kueue setting workloads aside, one every half grace, is progress: each
// time the grace passes with fewer active workloads, it starts over, and
// the wait ends once the queue has drained, not by moving on.
func TestDrainingStartsTheGraceOver(t *testing.T) {
	p := newPlane()
	p.pending = 6
	s := New(p.config(testTimings()))
	grace := DefaultTimings().TryGrace
	busy := p.drive(t, s, nil, func(int) {
		p.cycles++
		p.pending = max(6-float64(p.elapsed()/(grace/2)), 0)
	})
	if !busy.IsZero() {
		t.Fatalf("wait = %q, want quiet once drained", busy)
	}
	if s.Waits()[movedOn] != 0 || len(s.TakeRetriedNotes()) != 0 {
		t.Errorf("moved on while Kueue drained its queue: %v", s.Waits())
	}
	if p.elapsed() < 3*grace {
		t.Errorf("quiet after %s, before the queue drained", p.elapsed())
	}
	if s.active != 0 {
		t.Errorf("settled with %v workloads left to try", s.active)
	}
}

// judge on its own: only Kueue's churn keeps the rule's clock running;
// any other busy reason stops it.
func TestRetryRuleOtherReasonStops(t *testing.T) {
	p := newPlane()
	cycles := 0.0
	r := retryRule{clock: p.clock, grace: time.Second, progress: func() int64 { return 7 },
		attempts: func() (float64, error) { cycles += 5; return cycles, nil },
		gauge:    func() (float64, error) { return 1, nil }}
	trying := Busy{Kind: KueueTrying, Object: "cq", Detail: "1"}
	judge := func(b Busy) bool {
		t.Helper()
		moved, _, err := r.judge(b, "1", 1)
		if err != nil {
			t.Fatal(err)
		}
		return moved
	}
	if judge(trying) {
		t.Fatal("moved on at once")
	}
	p.clock.Step(900 * time.Millisecond)
	if judge(Busy{Kind: PodWaits, Object: "ns/p", Detail: "waits for kube-scheduler"}) || !r.since.IsZero() {
		t.Fatalf("a pod waiting for kube-scheduler left the rule running (since %v)", r.since)
	}
	if judge(trying) {
		t.Fatal("moved on when trying started over")
	}
	p.clock.Step(999 * time.Millisecond)
	if judge(Busy{Kind: EtcdChanging}) {
		t.Fatal("moved on before the grace")
	}
	p.clock.Step(time.Millisecond)
	if !judge(Busy{Kind: EtcdChanging}) {
		t.Fatal("still busy after the grace, with Kueue's cycles run")
	}
}

const fixedPoint = "Kueue at a fixed point, moved on"

// A StrictFIFO ClusterQueue's head that waits for quota: Kueue retries it
// at every cycle, admitting nothing and writing nothing. Once
// FixedPointCycles such cycles have run, the wait moves on at once, well
// before the grace, and leaves no note: Kueue has settled.
func TestFixedPointMovesOnAtOnceWithoutANote(t *testing.T) {
	p := newPlane()
	p.pending = 1
	cfg := p.config(testTimings())
	cfg.FixedPointCycles = 6
	s := New(cfg)
	busy := p.drive(t, s, nil, func(int) { p.cycles++ })
	if !busy.IsZero() {
		t.Fatalf("wait = %q, want it to move on", busy)
	}
	if grace := DefaultTimings().TryGrace; p.elapsed() >= grace/4 {
		t.Errorf("moved on after %s, want far sooner than the grace (%s)", p.elapsed(), grace)
	}
	if got := s.Waits()[fixedPoint]; got != DefaultTimings().Rounds {
		t.Errorf("waits = %v, want %d polls at a fixed point", s.Waits(), DefaultTimings().Rounds)
	}
	if notes := s.TakeRetriedNotes(); len(notes) != 0 {
		t.Errorf("notes = %q, want none at a fixed point", notes)
	}
}

// Kueue writing while it retries is no fixed point: the grace and the
// note stay.
func TestWritesAreNoFixedPoint(t *testing.T) {
	p := newPlane()
	p.pending = 1
	cfg := p.config(testTimings())
	cfg.FixedPointCycles = 6
	s := New(cfg)
	busy := p.drive(t, s, nil, func(poll int) {
		p.cycles++
		if poll > 3 && poll%2 == 0 {
			p.rev++
		}
	})
	if !busy.IsZero() {
		t.Fatalf("wait = %q, want it to move on", busy)
	}
	if grace := DefaultTimings().TryGrace; p.elapsed() < grace {
		t.Errorf("moved on after %s, before the grace (%s)", p.elapsed(), grace)
	}
	if s.Waits()[fixedPoint] != 0 || len(s.TakeRetriedNotes()) != 1 {
		t.Errorf("waits = %v, want the retry rule's move with its note", s.Waits())
	}
}

// Too few cycles are no fixed point either: a head's flavor search may
// not have come round yet.
func TestFewCyclesAreNoFixedPoint(t *testing.T) {
	p := newPlane()
	p.pending = 1
	cfg := p.config(testTimings())
	cfg.FixedPointCycles = 1000
	s := New(cfg)
	if busy := p.drive(t, s, nil, func(int) { p.cycles++ }); !busy.IsZero() {
		t.Fatalf("wait = %q, want it to move on after the grace", busy)
	}
	if s.Waits()[fixedPoint] != 0 || len(s.TakeRetriedNotes()) != 1 {
		t.Errorf("waits = %v, want the retry rule's move with its note", s.Waits())
	}
}

// A preemptor Kueue requeues at every cycle while kube-controller-manager
// deletes the pods of the job it suspended: etcd moves with each deletion
// and Kueue's cycles admit nothing, yet the wait does not move on before
// those pods are gone, whatever the grace and the cycles say.
func TestOwedWorkHoldsTheRetryRule(t *testing.T) {
	p := newPlane()
	p.pending = 1
	cfg := p.config(testTimings())
	cfg.FixedPointCycles = 3
	s := New(cfg)
	owe := func(why Busy) {
		cfg.Index.mu.Lock()
		defer cfg.Index.mu.Unlock()
		cfg.Index.set("ns/routine", why)
	}
	grace := DefaultTimings().TryGrace
	var gone time.Duration
	busy := p.drive(t, s, nil, func(poll int) {
		p.cycles++
		switch {
		case poll == 2:
			owe(Busy{Kind: JobWaits, Object: "ns/routine", Detail: "kube-controller-manager is deleting the pods of the suspended job"})
			fallthrough
		case poll > 2 && gone == 0:
			p.rev++ // each poll sees a pod deleted
		}
		if gone == 0 && p.elapsed() >= 3*grace {
			owe(Busy{})
			p.pending, gone = 0, p.elapsed()
		}
	})
	if !busy.IsZero() {
		t.Fatalf("wait = %q, want quiet once the pods are gone", busy)
	}
	if gone == 0 || p.elapsed() < gone {
		t.Errorf("quiet after %s, before the pods were gone", p.elapsed())
	}
	if s.Waits()[movedOn] != 0 || s.Waits()[fixedPoint] != 0 || len(s.TakeRetriedNotes()) != 0 {
		t.Errorf("moved on while kube-controller-manager owed work: %v", s.Waits())
	}
}
