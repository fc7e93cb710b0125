package engine

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/fakes"
)

var update = flag.Bool("update", false, "rewrite testdata/kinds from WorkloadObject's output")

// kindArrivals are the fixed arrivals the golden objects are built from:
// one that sets every field WorkloadObject reads, with several replicas,
// and a bare one with a single replica and no queue.
func kindArrivals(kind scenarios.WorkloadKind) map[string]Arrival {
	team := &scenarios.Team{Name: "research", Namespace: "research-ns"}
	full := &scenarios.Stream{
		Name: "train", Team: "research", Kind: kind, Replicas: ptr.To[int32](3),
		Requests: corev1.ResourceList{
			corev1.ResourceCPU:    resource.MustParse("2"),
			corev1.ResourceMemory: resource.MustParse("4Gi"),
			"nvidia.com/gpu":      resource.MustParse("1"),
		},
		Queue: "gpu", HardwareProfile: "a100-profile", PriorityClass: "high",
		RequiredNodeAffinity: []corev1.NodeSelectorRequirement{{
			Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a", "b"},
		}},
	}
	bare := &scenarios.Stream{
		Name: "solo", Team: "research", Kind: kind, Replicas: ptr.To[int32](1),
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m")},
	}
	return map[string]Arrival{
		"full": {Name: "train-7", Stream: full, Team: team, Index: 7},
		"bare": {Name: "solo-0", Stream: bare, Team: team},
	}
}

// TestKindsRegistered: every kind a scenario can name has a kind_*.go
// file in the registry, and the registry holds no other.
func TestKindsRegistered(t *testing.T) {
	for _, kind := range scenarios.Kinds {
		if _, err := lookupKind(kind); err != nil {
			t.Errorf("scenarios kind %s: %v", kind, err)
		}
	}
	if len(kinds) != len(scenarios.Kinds) {
		t.Errorf("%d kinds registered, scenarios has %d: %v", len(kinds), len(scenarios.Kinds), scenarios.Kinds)
	}
	if _, err := lookupKind("MPIJob"); err == nil || err.Error() != `unknown kind "MPIJob"` {
		t.Errorf("lookupKind(MPIJob): got error %v, want unknown kind", err)
	}
}

// TestWorkloadObjectGolden: for each kind, WorkloadObject builds the object
// in testdata/kinds (its Go type, then its YAML); -update rewrites them:
// read the diff before committing it.
func TestWorkloadObjectGolden(t *testing.T) {
	priorities := map[string]int32{"high": 1000}
	for _, kind := range scenarios.Kinds {
		for name, a := range kindArrivals(kind) {
			t.Run(string(kind)+"/"+name, func(t *testing.T) {
				obj, err := WorkloadObject(a, priorities)
				if err != nil {
					t.Fatal(err)
				}
				data, err := yaml.Marshal(obj)
				if err != nil {
					t.Fatal(err)
				}
				got := fmt.Sprintf("# %T\n%s", obj, data)
				golden := filepath.Join("testdata", "kinds", strings.ToLower(string(kind))+"-"+name+".yaml")
				if *update {
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v: run with -update to write it", err)
				}
				if diff := cmp.Diff(string(want), got); diff != "" {
					t.Errorf("%s differs (-want +got):\n%s", golden, diff)
				}
			})
		}
	}
}

// TestWorkloadObjectUnknownKind: a kind no file registers is an error that
// names it.
func TestWorkloadObjectUnknownKind(t *testing.T) {
	a := kindArrivals("MPIJob")["full"]
	_, err := WorkloadObject(a, nil)
	if err == nil || !strings.Contains(err.Error(), `unknown kind "MPIJob"`) {
		t.Fatalf("WorkloadObject of an MPIJob: got error %v, want one naming the unknown kind", err)
	}
}

// TestPodCount: a running workload has one pod per replica, and a RayJob
// one more, its submitter.
func TestPodCount(t *testing.T) {
	want := map[scenarios.WorkloadKind]int{
		scenarios.KindJob: 3, scenarios.KindPyTorchJob: 3, scenarios.KindRayJob: 4, scenarios.KindRayCluster: 3,
		scenarios.KindNotebook: 3, scenarios.KindInferenceService: 3, scenarios.KindWorkload: 3,
	}
	for _, kind := range scenarios.Kinds {
		if got := PodCount(kindArrivals(kind)["full"].Stream); got != want[kind] {
			t.Errorf("PodCount of a %s with 3 replicas = %d, want %d", kind, got, want[kind])
		}
	}
}

// TestTotalRequests: an arrival asks its requests once per replica, and a
// RayJob KubeRay's default submitter requests (500m CPU, 200Mi) besides,
// as Kueue counts them; the submitter asks for no GPU.
func TestTotalRequests(t *testing.T) {
	for _, kind := range []scenarios.WorkloadKind{scenarios.KindJob, scenarios.KindRayJob} {
		st := kindArrivals(kind)["bare"].Stream
		got := totalRequests(st)
		want := map[string]float64{"cpu": 0.5}
		if kind == scenarios.KindRayJob {
			want = map[string]float64{"cpu": 1, "memory": 200 * (1 << 20)}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("totalRequests of a %s with 1 replica of 500m CPU = %v, want %v", kind, got, want)
		}
	}
}

// TestRunsPods: only a scenario whose every stream submits raw Workloads
// runs without kube-scheduler and kube-controller-manager.
// streamsOf is a scenario with one stream of each of kinds.
func streamsOf(kinds ...scenarios.WorkloadKind) *scenarios.Scenario {
	s := &scenarios.Scenario{}
	for _, k := range kinds {
		s.Workloads = append(s.Workloads, scenarios.Stream{Kind: k})
	}
	return s
}

func TestRunsPods(t *testing.T) {
	for name, tc := range map[string]struct {
		s    *scenarios.Scenario
		want bool
	}{
		"raw Workloads only":       {streamsOf(scenarios.KindWorkload, scenarios.KindWorkload), false},
		"a Job beside raw ones":    {streamsOf(scenarios.KindWorkload, scenarios.KindJob), true},
		"notebooks":                {streamsOf(scenarios.KindNotebook), true},
		"an unknown kind":          {streamsOf("MPIJob"), true},
		"no streams (checks only)": {streamsOf(), true},
	} {
		if got := runsPods(tc.s); got != tc.want {
			t.Errorf("%s: runsPods = %v, want %v", name, got, tc.want)
		}
	}
}

func TestOperators(t *testing.T) {
	for name, tc := range map[string]struct {
		s    *scenarios.Scenario
		want []fakes.Kind // nil: all
	}{
		"raw Workloads and Jobs: none": {streamsOf(scenarios.KindWorkload, scenarios.KindJob), []fakes.Kind{}},
		"a RayJob needs RayClusters served too (Kueue watches them)": {streamsOf(scenarios.KindRayJob),
			[]fakes.Kind{fakes.RayJob, fakes.RayCluster}},
		"each kind its own, in fakes.AllKinds order": {streamsOf(scenarios.KindPyTorchJob, scenarios.KindInferenceService, scenarios.KindNotebook, scenarios.KindJob),
			[]fakes.Kind{fakes.Notebook, fakes.InferenceService, fakes.PyTorchJob}},
		"no streams (checks only): all": {streamsOf(), nil},
		"an unknown kind: all":          {streamsOf(scenarios.KindJob, "MPIJob"), nil},
	} {
		got := operators(tc.s)
		if (got == nil) != (tc.want == nil) || !slices.Equal(got, tc.want) {
			t.Errorf("%s: operators = %#v, want %#v", name, got, tc.want)
		}
	}
	// Every fake operator is some kind's: none is left out for good.
	used := map[fakes.Kind]bool{}
	for _, k := range kinds {
		if wo, ok := k.(kindWithOperators); ok {
			for _, o := range wo.operators() {
				used[o] = true
			}
		}
	}
	for _, k := range fakes.AllKinds {
		if !used[k] {
			t.Errorf("no workload kind needs the fake %s operator", k)
		}
		if k.CRD() == "" {
			t.Errorf("the fake %s operator names no CRD", k)
		}
	}
}
