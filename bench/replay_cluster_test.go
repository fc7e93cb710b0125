//go:build integration

package bench

import (
	"context"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/cluster"
	"github.com/kueue-sim/kueue-sim/sim/engine"
	"github.com/kueue-sim/kueue-sim/sim/fakes"
	"github.com/kueue-sim/kueue-sim/sim/harness"
	"github.com/kueue-sim/kueue-sim/sim/procs"
)

// A replay's cluster, started with the options `sim run` and the
// benchmarks use, spares kube-apiserver what nothing in a run reads.
func TestReplayCluster(t *testing.T) {
	t.Setenv(procs.EnvRunRoot, t.TempDir())
	s, err := scenarios.LoadFile("../scenarios/multi-team-fair-sharing.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var mu sync.Mutex
	inProcess := map[string]int{} // component -> Events
	reasons := map[string]int{}
	inspect := func(ctx context.Context, cp *cluster.ControlPlane) (func(*engine.Result, error) error, error) {
		w, ok := cp.WatchInProcessEvents(func(e *corev1.Event) {
			mu.Lock()
			defer mu.Unlock()
			inProcess[e.Source.Component]++
			reasons[e.Reason]++
		})
		if !ok {
			t.Fatal("a replay's control plane writes Events to the API server")
		}
		return func(res *engine.Result, err error) error {
			defer w.Stop()
			if err != nil {
				t.Fatal(err)
			}
			if !res.Passed() {
				t.Fatalf("the scenario's expectations failed: %+v", res)
			}
			inspectReplayCluster(ctx, t, cp, &mu, inProcess, reasons)
			return nil
		}, nil
	}
	res, err := harness.Run(ctx, s, harness.WithControlPlane(inspect))
	if err != nil {
		t.Fatal(err)
	}
	if res.StopErr != nil {
		t.Errorf("stopping the control plane: %v", res.StopErr)
	}
}

// inspectReplayCluster looks at the control plane of a finished replay,
// still up; inProcess and reasons count the Events recorded in process,
// under mu.
func inspectReplayCluster(ctx context.Context, t *testing.T, cp *cluster.ControlPlane, mu *sync.Mutex, inProcess, reasons map[string]int) {
	// Kueue and kueue-sim's controllers still record their Events
	// (admissions, preemptions, the job integration's Started), in
	// process; kube-scheduler's and kube-controller-manager's stay in
	// their processes too (kueue-sim's builds answer their recorders
	// themselves). kube-apiserver stores none; an Event written here
	// shows the listing reads what is there. That those components do
	// record Events, which reach the API when it is not a replay, is
	// sim/cluster's TestComponentsRecordEventsOutsideReplays.
	t.Run("Events stay out of the API", func(t *testing.T) {
		probe := &corev1.Event{
			ObjectMeta:     metav1.ObjectMeta{Name: "probe", Namespace: "default"},
			InvolvedObject: corev1.ObjectReference{Kind: "Namespace", Name: "default"},
			Reason:         "Probe", Source: corev1.EventSource{Component: "replay-cluster-test"},
		}
		if err := cp.Client.Create(ctx, probe); err != nil {
			t.Fatal(err)
		}
		var core corev1.EventList
		if err := cp.Client.List(ctx, &core); err != nil {
			t.Fatal(err)
		}
		var ev eventsv1.EventList
		if err := cp.Client.List(ctx, &ev); err != nil {
			t.Fatal(err)
		}
		// Each Event is listed twice, once in either API.
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
		if inAPI["replay-cluster-test"] == 0 {
			t.Errorf("the probe Event is not listed: the listing proves nothing (in the API: %v)", inAPI)
		}
		delete(inAPI, "replay-cluster-test")
		// kube-apiserver's own repair loops record Events from inside it
		// (a ClusterIP of the default Service found unallocated while the
		// API server starts, for one): no component the replay starts
		// writes them.
		for _, c := range apiserverReporters {
			delete(inAPI, c)
		}
		if len(inAPI) > 0 {
			t.Errorf("kube-apiserver holds Events from %v; a replay keeps every component's in process", inAPI)
		}
		t.Logf("in process: %v; in the API: %v", sortedKeys(inProcess), inAPI)
	})

	// The scenario's streams are Jobs: no fake operator runs, and the CRDs
	// of the kinds they would run are not served (their schemas were
	// ~300 MiB of kube-apiserver's memory), while Kueue's are.
	t.Run("only the CRDs the streams need", func(t *testing.T) {
		var crds apiextensionsv1.CustomResourceDefinitionList
		if err := cp.Client.List(ctx, &crds); err != nil {
			t.Fatal(err)
		}
		served := map[string]bool{}
		for _, c := range crds.Items {
			served[c.Name] = true
		}
		for _, k := range fakes.AllKinds {
			if served[k.CRD()] {
				t.Errorf("CRD %s is served, but no stream submits a %s", k.CRD(), k)
			}
		}
		if !served[cluster.WorkloadsResource] {
			t.Errorf("Kueue's Workload CRD is not served; served: %v", sortedKeys(served))
		}
	})

	// Workloads are written hundreds of times a second in a replay; their
	// watch cache would keep 75 s of that history.
	t.Run("WithoutWatchCache keeps no watch cache for Workloads", func(t *testing.T) {
		cs, err := kubernetes.NewForConfig(cp.Config)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := cs.Discovery().RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
		if err != nil {
			t.Fatal(err)
		}
		received := watchCacheEvents(raw)
		if n := received["kueue.x-k8s.io/workloads"]; n > 0 {
			t.Errorf("kube-apiserver's watch cache received %v Workload events, want no watch cache for Workloads", n)
		}
		if received["kueue.x-k8s.io/clusterqueues"] == 0 {
			t.Errorf("no watch-cache events for ClusterQueues either: is the metric still apiserver_watch_cache_events_received_total? read: %v", received)
		}
	})
}

// watchCacheEvents reads apiserver_watch_cache_events_received_total per
// group/resource from kube-apiserver's metrics.
func watchCacheEvents(metrics []byte) map[string]float64 {
	out := map[string]float64{}
	re := regexp.MustCompile(`^apiserver_watch_cache_events_received_total\{group="([^"]*)",resource="([^"]*)"\} (\S+)$`)
	for _, line := range strings.Split(string(metrics), "\n") {
		if m := re.FindStringSubmatch(line); m != nil {
			v, _ := strconv.ParseFloat(m[3], 64)
			out[m[1]+"/"+m[2]] += v
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// apiserverReporters are the controllers that run inside kube-apiserver and
// record Events there.
var apiserverReporters = []string{"ipallocator-repair-controller", "portallocator-repair-controller"}
