package engine

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// Every kind the loader lets a change delete is one the engine deletes,
// namespaced as the loader says.
func TestDeletableCoversTheLoadersKinds(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := kueue.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	for kind, namespaced := range scenarios.DeletableKinds {
		ref := scenarios.ObjectRef{Kind: kind, Name: "x"}
		if namespaced {
			ref.Namespace = "ns"
		}
		obj := deletable(scheme, ref)
		if obj == nil {
			t.Errorf("kind %s: the engine does not delete it", kind)
			continue
		}
		if obj.GetName() != "x" || obj.GetNamespace() != ref.Namespace {
			t.Errorf("kind %s: object %s/%s, want %s/x", kind, obj.GetNamespace(), obj.GetName(), ref.Namespace)
		}
	}
	if deletable(scheme, scenarios.ObjectRef{Kind: "Pod", Name: "x"}) != nil {
		t.Error("a Pod is deletable, want only Kueue's kinds")
	}
}

// Changes go on the timeline at their times, after the arrivals pushed
// before them at the same time.
func TestPlanChangesPutsEachOnTheTimeline(t *testing.T) {
	r := &Runner{s: &scenarios.Scenario{Changes: []scenarios.Change{
		{At: metav1.Duration{Duration: time.Minute}},
		{At: metav1.Duration{Duration: 0}},
	}}}
	r.planChanges()
	var got []time.Duration
	var idx []int
	for !r.queue.empty() {
		at := r.queue.next()
		for _, it := range r.queue.popAt(at) {
			if it.act != actChange {
				t.Fatalf("action %v, want actChange", it.act)
			}
			got, idx = append(got, it.at), append(idx, it.change)
		}
	}
	if len(got) != 2 || got[0] != 0 || got[1] != time.Minute || idx[0] != 1 || idx[1] != 0 {
		t.Errorf("timeline %v (changes %v), want [0s 1m0s] (changes [1 0])", got, idx)
	}
}
