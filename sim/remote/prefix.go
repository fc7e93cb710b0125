package remote

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// RunLabel carries the run id on everything a run creates.
const RunLabel = "kueue-sim.io/run"

// Prefixed returns a copy of s whose team and hardware-profile namespaces
// start with prefix and whose team namespaces carry RunLabel=runID. s is not
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
	return &out, nil
}
