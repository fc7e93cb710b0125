package engine

import (
	"strings"
	"testing"
	"time"

	"k8s.io/utils/ptr"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// A held instant waits for Kueue to make each arrival's Workload; after
// queueWait it moves on and says, once, what it waited for.
func TestNotQueuedWaitsThenWarnsOnce(t *testing.T) {
	defer func(d time.Duration) { queueWait = d }(queueWait)
	queueWait = 50 * time.Millisecond
	r := &Runner{}
	st := &wlState{key: "team/job-0", arrival: Arrival{
		Team:   &scenarios.Team{Name: "team", Namespace: "team"},
		Stream: &scenarios.Stream{Name: "job", Queue: "q", Replicas: ptr.To[int32](1)},
	}}
	var warnings []string
	check := r.notQueued([]*wlState{st}, func(m string) { warnings = append(warnings, m) })
	if got := check().String(); got != "Kueue has not made the Workload of team/job-0" {
		t.Fatalf("busy = %q", got)
	}
	time.Sleep(60 * time.Millisecond)
	for i := 0; i < 3; i++ {
		if got := check().String(); got != "" {
			t.Fatalf("after queueWait busy = %q, want nothing", got)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "team/job-0 after 50ms") {
		t.Errorf("warnings = %q, want one naming the arrival", warnings)
	}
	st.refused = true
	if got := r.notQueued([]*wlState{st}, nil)().String(); got != "" {
		t.Errorf("a refused arrival: busy = %q", got)
	}
}
