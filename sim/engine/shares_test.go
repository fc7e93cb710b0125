package engine

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/sim/record"
)

func shareCQ(name string, share *int64) *kueue.ClusterQueue {
	cq := &kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if share != nil {
		cq.Status.FairSharing = &kueue.FairSharingStatus{WeightedShare: *share}
	}
	return cq
}

func shareCohort(name string, share int64) *kueue.Cohort {
	co := &kueue.Cohort{ObjectMeta: metav1.ObjectMeta{Name: name}}
	co.Status.FairSharing = &kueue.FairSharingStatus{WeightedShare: share}
	return co
}

func i64(v int64) *int64 { return &v }

// brief is what a test compares of a Share event: the wall time only has
// to be set.
type brief struct {
	T            time.Duration
	ClusterQueue string
	Cohort       string
	Share        int64
}

func briefs(t *testing.T, evs []record.Event) []brief {
	t.Helper()
	out := []brief{}
	for _, e := range evs {
		if e.Type != record.TypeShare || e.Wall == nil || e.WeightedShare == nil {
			t.Fatalf("not a complete Share event: %+v", e)
		}
		out = append(out, brief{e.T.D(), e.ClusterQueue, e.Cohort, *e.WeightedShare})
	}
	return out
}

// take returns what changed since the last take, ClusterQueues before
// Cohorts, each sorted by name, stamped with the simulated time of the
// take; a ClusterQueue without fair-sharing status (fair sharing off) and
// other objects are ignored.
func TestShareObserverTakesChangesSorted(t *testing.T) {
	clock := &VirtualClock{}
	s := newShareObserver(clock)
	for _, step := range []struct {
		name  string
		at    time.Duration
		feed  func()
		wants []brief
	}{
		{"nothing seen", 0, func() {}, []brief{}},
		{"first values, all taken", 0, func() {
			s.onCohort(shareCohort("gpus", 0))
			s.onClusterQueue(shareCQ("team-b", i64(0)))
			s.onClusterQueue(shareCQ("team-a", i64(500)))
			s.onClusterQueue(shareCQ("no-fair-sharing", nil))
			s.onClusterQueue(&corev1.Pod{})
			s.onCohort(shareCQ("not-a-cohort", i64(7)))
		}, []brief{{0, "team-a", "", 500}, {0, "team-b", "", 0}, {0, "", "gpus", 0}}},
		{"unchanged status updates", 10 * time.Minute, func() {
			s.onClusterQueue(shareCQ("team-a", i64(500)))
			s.onCohort(shareCohort("gpus", 0))
		}, []brief{}},
		{"one changes", 20 * time.Minute, func() {
			s.onClusterQueue(shareCQ("team-a", i64(250)))
			s.onClusterQueue(shareCQ("team-b", i64(0)))
		}, []brief{{20 * time.Minute, "team-a", "", 250}}},
		{"changed and changed back between takes", 30 * time.Minute, func() {
			s.onClusterQueue(shareCQ("team-b", i64(63)))
			s.onClusterQueue(shareCQ("team-b", i64(0)))
		}, []brief{}},
		{"a newcomer and the maximum share", 40 * time.Minute, func() {
			s.onClusterQueue(shareCQ("zero-weight", i64(9223372036854775807)))
			s.onCohort(shareCohort("gpus", 125))
		}, []brief{{40 * time.Minute, "zero-weight", "", 9223372036854775807}, {40 * time.Minute, "", "gpus", 125}}},
	} {
		clock.Set(step.at)
		step.feed()
		if diff := cmp.Diff(step.wants, briefs(t, s.take())); diff != "" {
			t.Errorf("%s: take (-want +got):\n%s", step.name, diff)
		}
	}
}

// Handlers run on informer goroutines while the engine takes: run with
// -race.
func TestShareObserverConcurrentHandlers(t *testing.T) {
	clock := &VirtualClock{}
	s := newShareObserver(clock)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				s.onClusterQueue(shareCQ(fmt.Sprintf("cq-%d", g), i64(int64(i))))
				s.onCohort(shareCohort("all", int64(i)))
			}
		}()
	}
	var taken []record.Event
	for i := 0; i < 50; i++ {
		clock.Set(time.Duration(i) * time.Second)
		taken = append(taken, s.take()...)
	}
	wg.Wait()
	taken = append(taken, s.take()...)
	last := map[string]int64{}
	for _, e := range taken {
		last[e.ClusterQueue+"|"+e.Cohort] = *e.WeightedShare
	}
	for _, k := range []string{"cq-0|", "cq-1|", "cq-2|", "cq-3|", "|all"} {
		if last[k] != 199 {
			t.Errorf("%s: last share taken %d, want 199", k, last[k])
		}
	}
	if more := s.take(); len(more) != 0 {
		t.Errorf("a take after everything was taken returned %d events", len(more))
	}
}
