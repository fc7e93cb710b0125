package remote

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/scenarios/manifests"
)

// RunLabel carries the run id on everything a run creates.
const RunLabel = "kueue-sim.io/run"

// Prefixed returns a copy of s whose team and hardware-profile namespaces,
// and the namespaces of its manifests and changes, start with prefix and whose team
// namespaces (and the manifests' Namespaces) carry RunLabel=runID. s is not
// changed; the copy shares the rest of s.
func Prefixed(s *scenarios.Scenario, prefix, runID string) (*scenarios.Scenario, error) {
	out := *s
	out.Teams = make([]scenarios.Team, len(s.Teams))
	for i, t := range s.Teams {
		t.Namespace = prefix + t.Namespace
		for _, msg := range validation.IsDNS1123Label(t.Namespace) {
			return nil, fmt.Errorf("prefixing namespace %s of team %s with %q: %s", s.Teams[i].Namespace, t.Name, prefix, msg)
		}
		labels := map[string]string{RunLabel: runID}
		for k, v := range t.Labels {
			labels[k] = v
		}
		t.Labels = labels
		out.Teams[i] = t
	}
	out.Queues.HardwareProfiles = make([]scenarios.HardwareProfile, len(s.Queues.HardwareProfiles))
	for i, hp := range s.Queues.HardwareProfiles {
		hp.Namespace = prefix + hp.Namespace
		out.Queues.HardwareProfiles[i] = hp
	}
	for _, o := range s.Loaded.Manifests.Namespaces() {
		for _, msg := range validation.IsDNS1123Label(prefix + o.Obj.Name) {
			return nil, fmt.Errorf("prefixing Namespace %s of %s with %q: %s", o.Obj.Name, o.Source, prefix, msg)
		}
	}
	labels := map[string]string{RunLabel: runID}
	out.Loaded.Manifests = s.Loaded.Manifests.WithNamespacePrefix(prefix, labels)
	// A change's objects and deletions name the scenario's namespaces too.
	if s.Loaded.Changes != nil {
		out.Loaded.Changes = make([]*manifests.Set, len(s.Loaded.Changes))
		for i, set := range s.Loaded.Changes {
			out.Loaded.Changes[i] = set.WithNamespacePrefix(prefix, labels)
		}
	}
	if s.Changes != nil {
		out.Changes = make([]scenarios.Change, len(s.Changes))
		for i, c := range s.Changes {
			if c.Delete != nil {
				del := make([]scenarios.ObjectRef, len(c.Delete))
				for j, d := range c.Delete {
					if d.Namespace != "" {
						d.Namespace = prefix + d.Namespace
					}
					del[j] = d
				}
				c.Delete = del
			}
			out.Changes[i] = c
		}
	}
	return &out, nil
}
