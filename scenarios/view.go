package scenarios

import (
	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
)

// The queue facts the engine and the reports need, from the schema and
// the manifests alike: read them here rather than from s.Queues, which
// holds the schema's objects only.

// NamedValue is a name and what it stands for.
type NamedValue[V any] struct {
	Name  string
	Value V
}

// FlavorNodeLabels are each ResourceFlavor's node labels, schema first.
func (s *Scenario) FlavorNodeLabels() []NamedValue[map[string]string] {
	var out []NamedValue[map[string]string]
	for _, f := range s.Queues.ResourceFlavors {
		out = append(out, NamedValue[map[string]string]{f.Name, f.NodeLabels})
	}
	for _, f := range s.Loaded.Manifests.ResourceFlavors() {
		out = append(out, NamedValue[map[string]string]{f.Obj.Name, f.Obj.Spec.NodeLabels})
	}
	return out
}

// ClusterQueueCohorts are each ClusterQueue's cohort ("" for none), in
// declaration order, schema first.
func (s *Scenario) ClusterQueueCohorts() []NamedValue[string] {
	var out []NamedValue[string]
	for _, cq := range s.Queues.ClusterQueues {
		out = append(out, NamedValue[string]{cq.Name, cq.Cohort})
	}
	for _, cq := range s.Loaded.Manifests.ClusterQueues() {
		out = append(out, NamedValue[string]{cq.Obj.Name, string(cq.Obj.Spec.CohortName)})
	}
	return out
}

// CohortParents are each declared Cohort's parent ("" for none).
func (s *Scenario) CohortParents() []NamedValue[string] {
	var out []NamedValue[string]
	for _, c := range s.Queues.Cohorts {
		out = append(out, NamedValue[string]{c.Name, c.Parent})
	}
	for _, c := range s.Loaded.Manifests.Cohorts() {
		out = append(out, NamedValue[string]{c.Obj.Name, string(c.Obj.Spec.ParentName)})
	}
	return out
}

// PriorityValues are the WorkloadPriorityClasses' values by name.
func (s *Scenario) PriorityValues() map[string]int32 {
	out := map[string]int32{}
	for _, pc := range s.Queues.PriorityClasses {
		out[pc.Name] = pc.Value
	}
	for _, pc := range s.Loaded.Manifests.WorkloadPriorityClasses() {
		out[pc.Obj.Name] = pc.Obj.Value
	}
	return out
}

// LocalQueueTargets maps "namespace/name" of every LocalQueue to its
// ClusterQueue.
func (s *Scenario) LocalQueueTargets() map[string]string {
	out := map[string]string{}
	for _, t := range s.Teams {
		for _, lq := range t.LocalQueues {
			out[t.Namespace+"/"+lq.Name] = lq.ClusterQueue
		}
	}
	for _, lq := range s.Loaded.Manifests.LocalQueues() {
		out[lq.Obj.Namespace+"/"+lq.Obj.Name] = string(lq.Obj.Spec.ClusterQueue)
	}
	return out
}

// ProfileQueue is the LocalQueue a Queue hardware profile sends workloads
// to, or "".
func (s *Scenario) ProfileQueue(name string) string {
	for _, hp := range s.Queues.HardwareProfiles {
		if hp.Name == name {
			return hp.LocalQueue
		}
	}
	for _, hp := range s.Loaded.Manifests.HardwareProfiles() {
		if sc := hp.Obj.Spec.Scheduling; hp.Obj.Name == name && sc != nil && sc.Type == infrav1.QueueScheduling && sc.Kueue != nil {
			return sc.Kueue.LocalQueueName
		}
	}
	return ""
}

// ClusterQueueCount counts the ClusterQueues of the schema and the
// manifests.
func (s *Scenario) ClusterQueueCount() int {
	return len(s.Queues.ClusterQueues) + len(s.Loaded.Manifests.ClusterQueues())
}
