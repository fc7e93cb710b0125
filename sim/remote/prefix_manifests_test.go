package remote

import (
	"testing"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// The manifests' namespaced objects and Namespaces move to the prefixed
// namespaces too; the loaded scenario keeps its own.
func TestPrefixedMovesManifests(t *testing.T) {
	s, err := scenarios.LoadFile("../../scenarios/testdata/manifests.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Prefixed(s, "run1-", "r1")
	if err != nil {
		t.Fatal(err)
	}
	lq := p.Loaded.Manifests.LocalQueues()[0].Obj
	ns := p.Loaded.Manifests.Namespaces()[0].Obj
	if lq.Namespace != "run1-research" || ns.Name != "run1-research" || ns.Labels[RunLabel] != "r1" || ns.Labels["cost-center"] != "r-and-d" {
		t.Errorf("prefixed LocalQueue in %q, Namespace %q with labels %v", lq.Namespace, ns.Name, ns.Labels)
	}
	if got := s.Loaded.Manifests.LocalQueues()[0].Obj.Namespace; got != "research" {
		t.Errorf("the original LocalQueue moved to %q", got)
	}
	if got := p.LocalQueueTargets(); got["run1-research/gpu"] != "research" {
		t.Errorf("LocalQueue targets %v lack run1-research/gpu", got)
	}
}

// A change's LocalQueues and deletions move to the prefixed namespaces
// too; the loaded scenario keeps its own.
func TestPrefixedMovesChanges(t *testing.T) {
	s, err := scenarios.LoadFile("../../scenarios/testdata/changes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Prefixed(s, "run1-", "r1")
	if err != nil {
		t.Fatal(err)
	}
	var deleted []string
	for _, c := range p.Changes {
		for _, d := range c.Delete {
			if d.Kind == "LocalQueue" {
				deleted = append(deleted, d.Namespace+"/"+d.Name)
			}
		}
	}
	if len(deleted) == 0 || deleted[0] != "run1-research/spare" {
		t.Errorf("deleted LocalQueues %v, want run1-research/spare", deleted)
	}
	for _, c := range s.Changes {
		for _, d := range c.Delete {
			if d.Kind == "LocalQueue" && d.Namespace != "research" {
				t.Errorf("the original change's LocalQueue moved to %q", d.Namespace)
			}
		}
	}
	for i, set := range p.Loaded.Changes {
		if set == nil {
			continue
		}
		for _, o := range set.Objects {
			if ns := o.Obj.GetNamespace(); ns != "" && ns[:5] != "run1-" {
				t.Errorf("changes[%d]: %s %s in namespace %q, want it prefixed", i, o.Kind, o.Obj.GetName(), ns)
			}
		}
	}
}
