package scenarios

import "k8s.io/utils/ptr"

// DefaultSeed is the seed of a scenario that names none.
const DefaultSeed int64 = 1

// Default fills the unset fields that have defaults. name is used when the
// scenario has none (usually the file name). A stream with a template gets
// no replicas: its object holds its pods' counts (see
// LoadedTemplate.PodSets), and replicas beside a template is invalid.
func Default(s *Scenario, name string) {
	if s.Name == "" {
		s.Name = name
	}
	if s.Seed == nil {
		s.Seed = ptr.To(DefaultSeed)
	}
	ai := &s.Cluster.OpenShiftAI
	if ai.ManagementState == "" {
		ai.ManagementState = "Unmanaged"
	}
	if ai.OperatorInstalled == nil {
		ai.OperatorInstalled = ptr.To(true)
	}
	for i := range s.Teams {
		if s.Teams[i].Namespace == "" {
			s.Teams[i].Namespace = s.Teams[i].Name
		}
	}
	for i := range s.Queues.HardwareProfiles {
		if hp := &s.Queues.HardwareProfiles[i]; hp.Namespace == "" && len(s.Teams) > 0 {
			hp.Namespace = s.Teams[0].Namespace
		}
	}
	for i := range s.Workloads {
		w := &s.Workloads[i]
		if w.Count == nil {
			n := int32(1)
			if len(w.Arrival.At) > 0 {
				n = int32(len(w.Arrival.At))
			}
			w.Count = &n
		}
		if w.Replicas == nil && w.Template == nil {
			w.Replicas = ptr.To[int32](1)
		}
	}
}
