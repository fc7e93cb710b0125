package settle

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A still control plane is quiet after one poll that sees etcd's revision
// for the first time and Rounds quiet polls after it.
func TestQuietAfterRounds(t *testing.T) {
	p := newPlane()
	s := New(p.config(testTimings()))
	if busy := p.drive(t, s, nil, nil); !busy.IsZero() {
		t.Fatalf("wait = %q, want quiet", busy)
	}
	if want := 1 + DefaultTimings().Rounds; p.polls != want {
		t.Errorf("%d polls, want %d", p.polls, want)
	}
	if diff := cmp.Diff(map[string]int{"etcd keeps changing": 1}, s.Waits()); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
}

// A write between quiet polls starts the count over.
func TestEtcdChangingResetsRounds(t *testing.T) {
	p := newPlane()
	s := New(p.config(testTimings()))
	busy := p.drive(t, s, nil, func(poll int) {
		if poll == 2 { // after one quiet poll
			p.rev++
		}
	})
	if !busy.IsZero() {
		t.Fatalf("wait = %q, want quiet", busy)
	}
	// Poll 0 and 2 see etcd change; 1 is quiet, then three more.
	if p.polls != 6 {
		t.Errorf("%d polls, want 6", p.polls)
	}
	if got := s.Waits()["etcd keeps changing"]; got != 2 {
		t.Errorf("%d polls saw etcd changing, want 2", got)
	}
}

// Until the informers have delivered every write, empty work queues prove
// nothing: the wait stays busy, naming the resource.
func TestInformersBehind(t *testing.T) {
	p := newPlane()
	cfg := p.config(testTimings())
	behind := 2
	cfg.Unseen = func(context.Context) (string, error) {
		if behind > 0 {
			behind--
			return "pods", nil
		}
		return "", nil
	}
	s := New(cfg)
	if busy := p.drive(t, s, nil, nil); !busy.IsZero() {
		t.Fatalf("wait = %q, want quiet", busy)
	}
	if got := s.Waits()["informers have not delivered every write: pods"]; got != 2 {
		t.Errorf("waits = %v, want 2 polls with the informers behind on pods", s.Waits())
	}
	if p.polls != 1+2+DefaultTimings().Rounds {
		t.Errorf("%d polls", p.polls)
	}
}

// The caller's also comes after etcd and the informers, before every
// other check; a held instant's arrival counts as Kueue trying.
func TestAlsoHoldsTheWait(t *testing.T) {
	p := newPlane()
	cfg := p.config(testTimings())
	also, others := 0, 0
	cfg.Others = []func() Busy{func() Busy {
		if also <= 3 {
			t.Errorf("a check ran while also named something (also call %d)", also)
		}
		others++
		return Busy{}
	}}
	s := New(cfg)
	busy := p.drive(t, s, func() Busy {
		if also++; also <= 3 {
			return Busy{Kind: KueueNotQueued, Object: "team/w"}
		}
		return Busy{}
	}, nil)
	if !busy.IsZero() {
		t.Fatalf("wait = %q, want quiet", busy)
	}
	if others != DefaultTimings().Rounds {
		t.Errorf("the other checks ran %d times, want %d", others, DefaultTimings().Rounds)
	}
	if got := s.Waits()["Kueue has workloads to try"]; got != 3 {
		t.Errorf("waits = %v, want 3 polls of Kueue trying", s.Waits())
	}
}

// While the control plane stays busy, polls back off from Poll to
// BusyPoll by half each time; a quiet poll brings them back to Poll.
func TestPollsBackOffWhileBusy(t *testing.T) {
	p := newPlane()
	s := New(Config{Timings: SeenTimings(), Clock: p.clock, Gatherer: p.gatherer(),
		Revision: func(context.Context) (int64, error) { return p.rev, nil }})
	w := s.begin(nil)
	var got []time.Duration
	for poll := 0; poll < 7; poll++ {
		if poll < 6 {
			p.rev++
		}
		if _, done, err := w.poll(context.Background()); err != nil || done {
			t.Fatalf("poll %d: done %v, %v", poll, done, err)
		}
		got = append(got, w.interval)
		p.clock.Step(w.interval)
	}
	ms := time.Millisecond
	want := []time.Duration{3 * ms, 4500 * time.Microsecond, 6750 * time.Microsecond, 10 * ms, 10 * ms, 10 * ms, 2 * ms}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("intervals (-want +got):\n%s", diff)
	}
}

// Once quiet, the wait lets Kueue's scheduler go on (Resume), then the
// instant's held pods (Release), waiting a full round after each.
func TestGoOnResumesThenReleases(t *testing.T) {
	p := newPlane()
	cfg := p.config(testTimings())
	var order []string
	resumed, released := false, false
	cfg.Resume = func() bool {
		order = append(order, "resume")
		if resumed {
			return false
		}
		resumed = true
		return true
	}
	cfg.Release = func(context.Context) (int, error) {
		order = append(order, "release")
		if released {
			return 0, nil
		}
		released = true
		return 2, nil
	}
	s := New(cfg)
	if busy := p.drive(t, s, nil, nil); !busy.IsZero() {
		t.Fatalf("wait = %q, want quiet", busy)
	}
	rounds := DefaultTimings().Rounds
	if want := 1 + 3*rounds; p.polls != want {
		t.Errorf("%d polls, want %d", p.polls, want)
	}
	if diff := cmp.Diff([]string{"resume", "resume", "release", "resume", "release"}, order); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	want := map[string]int{"etcd keeps changing": 1, "Kueue's scheduler went on after evicting": 1, "the instant's pods released to kube-scheduler": 1}
	if diff := cmp.Diff(want, s.Waits()); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
}

// A control plane that stays busy past Timeout ends the wait with the
// reason, read once more at the end.
func TestTimeoutReturnsTheReason(t *testing.T) {
	p := newPlane()
	cfg := p.config(testTimings())
	stuck := Busy{Kind: PodWaits, Object: "ns/p", Detail: "waits for kube-scheduler"}
	cfg.Others = []func() Busy{func() Busy { return stuck }}
	s := New(cfg)
	busy := p.drive(t, s, nil, nil)
	if busy != stuck {
		t.Fatalf("wait = %q, want %q", busy, stuck)
	}
	if p.elapsed() < testTimings().Timeout || p.elapsed() > testTimings().Timeout+time.Second {
		t.Errorf("gave up after %s, want just past %s", p.elapsed(), testTimings().Timeout)
	}
	if got := s.Waits()["pod waits for kube-scheduler"]; got != p.polls-1 {
		t.Errorf("%d busy polls counted, want %d", got, p.polls-1)
	}
}

// While Kueue's scheduler is paused after an evicting cycle, its
// workloads to try wait for Resume and do not make the control plane busy.
func TestPausedKueueIsNotBusy(t *testing.T) {
	p := newPlane()
	p.pending = 4
	cfg := p.config(testTimings())
	cfg.Paused = func() bool { return true }
	if busy := p.drive(t, New(cfg), nil, nil); !busy.IsZero() {
		t.Fatalf("wait = %q, want quiet", busy)
	}
}

// DecisionsOnly moves the wait to the decision revision and leaves the
// status-only controllers out.
func TestDecisionsOnly(t *testing.T) {
	p := newPlane()
	cfg := p.config(testTimings())
	statusRev := int64(0)
	cfg.Revision = func(context.Context) (int64, error) { statusRev++; return statusRev, nil }
	cfg.DecisionRevision = func(context.Context) (int64, error) { return p.rev, nil }
	cfg.StatusOnly = StatusOnly(false)
	s := New(cfg)
	s.DecisionsOnly()
	if busy := p.drive(t, s, nil, nil); !busy.IsZero() {
		t.Fatalf("wait = %q, want quiet on the decision revision", busy)
	}
	if !s.ignore["clusterqueue_controller"] || s.ignore["workload_controller"] {
		t.Errorf("ignored controllers = %v", s.ignore)
	}
}
