package bench

import (
	"context"
	"sort"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/cluster"
	"github.com/kueue-sim/kueue-sim/sim/engine"
	"github.com/kueue-sim/kueue-sim/sim/procs"
)

// A replay's cluster (the options `sim run` and the benchmarks start it
// with) keeps the Events of Kueue and kueue-sim's controllers in process:
// Kueue still records them (admissions, preemptions, the job integration's
// Started), but kube-apiserver stores none of them. kube-scheduler's and
// kube-controller-manager's Events still reach the API server (separate
// processes), which shows the listing below reads what is there.
func TestReplayWritesNoInProcessEventsToTheAPI(t *testing.T) {
	t.Setenv(procs.EnvRunRoot, t.TempDir())
	s, err := scenarios.LoadFile("../scenarios/multi-team-fair-sharing.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	clock := &engine.VirtualClock{}
	copts, err := engine.ClusterOptions(s, clock)
	if err != nil {
		t.Fatal(err)
	}
	cp, err := cluster.Start(ctx, append(copts, cluster.WithRunRoot(procs.DefaultRunRoot()))...)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := cp.Stop(); err != nil {
			t.Errorf("stopping the control plane: %v", err)
		}
	}()

	var mu sync.Mutex
	inProcess := map[string]int{} // component -> Events
	reasons := map[string]int{}
	w, ok := cp.WatchInProcessEvents(func(e *corev1.Event) {
		mu.Lock()
		defer mu.Unlock()
		inProcess[e.Source.Component]++
		reasons[e.Reason]++
	})
	if !ok {
		t.Fatal("a replay's control plane writes Events to the API server")
	}
	defer w.Stop()

	res, err := engine.New(s, engine.EmbeddedTarget(cp), clock, engine.WithPacing(engine.Relaxed)).Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed() {
		t.Fatalf("the scenario's expectations failed: %+v", res)
	}

	var core corev1.EventList
	if err := cp.Client.List(ctx, &core); err != nil {
		t.Fatal(err)
	}
	var ev eventsv1.EventList
	if err := cp.Client.List(ctx, &ev); err != nil {
		t.Fatal(err)
	}
	inAPI := map[string]int{} // reporting component -> Events
	count := func(names ...string) {
		seen := map[string]bool{}
		for _, n := range names {
			if n != "" && !seen[n] {
				seen[n] = true
				inAPI[n]++
			}
		}
	}
	for _, e := range core.Items {
		count(e.Source.Component, e.ReportingController)
	}
	for _, e := range ev.Items {
		count(e.ReportingController, e.DeprecatedSource.Component)
	}

	mu.Lock()
	defer mu.Unlock()
	// Kueue admitted and preempted in this scenario: it must have recorded
	// those Events (else the assertion below proves nothing).
	for _, r := range []string{"QuotaReserved", "Admitted", "Preempted"} {
		if reasons[r] == 0 {
			t.Errorf("no %s Event recorded in process; reasons seen: %v", r, reasons)
		}
	}
	for c := range inProcess {
		if n := inAPI[c]; n > 0 {
			t.Errorf("kube-apiserver holds %d Events from %q, which records in process", n, c)
		}
	}
	if len(inAPI) == 0 {
		t.Errorf("kube-apiserver holds no Events at all: kube-scheduler's and kube-controller-manager's should be there")
	}
	t.Logf("in process: %v; in the API: %v", sortedKeys(inProcess), inAPI)
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
