package engine

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/scenarios/manifests"
)

// DataScienceClusterName is the name of the DataScienceCluster the engine
// creates.
const DataScienceClusterName = "default-dsc"

// ClusterObjects returns the objects that set a scenario's cluster up, in
// creation order: the DataScienceCluster, namespaces, ResourceFlavors,
// Topologies, Cohorts, ClusterQueues, WorkloadPriorityClasses, LocalQueues,
// HardwareProfiles and OdhDashboardConfigs; of each kind the schema's, then
// the manifests' (copies: creating them leaves the loaded scenario as it
// is). The manifests' DataScienceCluster replaces the one made from
// cluster.openshiftAI; a manifests' Namespace that is a team's keeps its
// labels, with the team's labels and the managed label added.
func ClusterObjects(s *scenarios.Scenario) []client.Object {
	set := s.Loaded.Manifests
	var out []client.Object
	if dscs := set.DataScienceClusters(); len(dscs) > 0 {
		out = append(out, dscs[0].Obj.DeepCopy())
	} else {
		out = append(out, &dscv1.DataScienceCluster{
			ObjectMeta: metav1.ObjectMeta{Name: DataScienceClusterName},
			Spec: dscv1.DataScienceClusterSpec{Components: dscv1.Components{Kueue: dscv1.KueueComponent{
				ManagementState: dscv1.ManagementState(s.Cluster.OpenShiftAI.ManagementState),
			}}},
		})
	}
	manifestNS := map[string]*corev1.Namespace{}
	for _, ns := range set.Namespaces() {
		manifestNS[ns.Obj.Name] = ns.Obj
	}
	teamNS := map[string]bool{}
	for _, t := range s.Teams {
		teamNS[t.Namespace] = true
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: t.Namespace}}
		if m := manifestNS[t.Namespace]; m != nil {
			ns = m.DeepCopy()
		}
		labels := map[string]string{}
		for k, v := range ns.Labels {
			labels[k] = v
		}
		for k, v := range t.Labels {
			labels[k] = v
		}
		if !t.Unmanaged {
			labels[dscv1.KueueManagedLabel] = "true"
		}
		ns.Labels = labels
		out = append(out, ns)
	}
	for _, ns := range set.Namespaces() {
		if !teamNS[ns.Obj.Name] {
			out = append(out, ns.Obj.DeepCopy())
		}
	}
	for _, f := range s.Queues.ResourceFlavors {
		out = append(out, &kueue.ResourceFlavor{
			ObjectMeta: metav1.ObjectMeta{Name: f.Name},
			Spec:       kueue.ResourceFlavorSpec{NodeLabels: f.NodeLabels, Tolerations: f.Tolerations},
		})
	}
	out = appendCopies(out, set.ResourceFlavors())
	out = appendCopies(out, set.Topologies())
	for _, c := range s.Queues.Cohorts {
		co := &kueue.Cohort{ObjectMeta: metav1.ObjectMeta{Name: c.Name}}
		co.Spec.ParentName = kueue.CohortReference(c.Parent)
		if c.FairSharingWeight != nil {
			co.Spec.FairSharing = &kueue.FairSharing{Weight: c.FairSharingWeight}
		}
		out = append(out, co)
	}
	out = appendCopies(out, set.Cohorts())
	for i := range s.Queues.ClusterQueues {
		out = append(out, clusterQueue(&s.Queues.ClusterQueues[i]))
	}
	out = appendCopies(out, set.ClusterQueues())
	for _, pc := range s.Queues.PriorityClasses {
		out = append(out, &kueue.WorkloadPriorityClass{ObjectMeta: metav1.ObjectMeta{Name: pc.Name}, Value: pc.Value})
	}
	out = appendCopies(out, set.WorkloadPriorityClasses())
	for _, t := range s.Teams {
		for _, lq := range t.LocalQueues {
			out = append(out, &kueue.LocalQueue{
				ObjectMeta: metav1.ObjectMeta{Name: lq.Name, Namespace: t.Namespace},
				Spec:       kueue.LocalQueueSpec{ClusterQueue: kueue.ClusterQueueReference(lq.ClusterQueue)},
			})
		}
	}
	out = appendCopies(out, set.LocalQueues())
	for _, hp := range s.Queues.HardwareProfiles {
		out = append(out, hardwareProfile(hp))
	}
	out = appendCopies(out, set.HardwareProfiles())
	return appendCopies(out, set.OdhDashboardConfigs())
}

// appendCopies appends a copy of each manifest object.
func appendCopies[T client.Object](out []client.Object, objs []manifests.Typed[T]) []client.Object {
	for _, o := range objs {
		out = append(out, o.Obj.DeepCopyObject().(client.Object))
	}
	return out
}

func clusterQueue(cq *scenarios.ClusterQueue) *kueue.ClusterQueue {
	sel := cq.NamespaceSelector
	if sel == nil {
		sel = &metav1.LabelSelector{}
	}
	obj := &kueue.ClusterQueue{
		ObjectMeta: metav1.ObjectMeta{Name: cq.Name},
		Spec: kueue.ClusterQueueSpec{
			CohortName:        kueue.CohortReference(cq.Cohort),
			NamespaceSelector: sel,
			Preemption:        cq.Preemption,
		},
	}
	if cq.FairSharingWeight != nil {
		obj.Spec.FairSharing = &kueue.FairSharing{Weight: cq.FairSharingWeight}
	}
	for _, g := range cq.ResourceGroups {
		obj.Spec.ResourceGroups = append(obj.Spec.ResourceGroups, resourceGroup(g))
	}
	return obj
}

// resourceGroup covers every resource any of the group's flavors names, in
// first-seen order; a flavor that omits one gets zero of it, as Kueue
// requires every flavor of a group to list every covered resource.
func resourceGroup(g scenarios.ResourceGroup) kueue.ResourceGroup {
	var covered []corev1.ResourceName
	seen := map[corev1.ResourceName]bool{}
	for _, f := range g.Flavors {
		for _, r := range sortedResources(f.Resources) {
			if !seen[r] {
				seen[r] = true
				covered = append(covered, r)
			}
		}
	}
	rg := kueue.ResourceGroup{CoveredResources: covered}
	for _, f := range g.Flavors {
		fq := kueue.FlavorQuotas{Name: kueue.ResourceFlavorReference(f.Name)}
		for _, r := range covered {
			q := f.Resources[r]
			fq.Resources = append(fq.Resources, kueue.ResourceQuota{
				Name: r, NominalQuota: q.Nominal, BorrowingLimit: q.BorrowingLimit, LendingLimit: q.LendingLimit,
			})
		}
		rg.Flavors = append(rg.Flavors, fq)
	}
	return rg
}

func hardwareProfile(hp scenarios.HardwareProfile) *infrav1.HardwareProfile {
	obj := &infrav1.HardwareProfile{ObjectMeta: metav1.ObjectMeta{Name: hp.Name, Namespace: hp.Namespace}}
	if hp.LocalQueue != "" {
		obj.Spec.Scheduling = &infrav1.SchedulingSpec{
			Type:  infrav1.QueueScheduling,
			Kueue: &infrav1.KueueSchedulingSpec{LocalQueueName: hp.LocalQueue, PriorityClass: hp.PriorityClass},
		}
	} else {
		obj.Spec.Scheduling = &infrav1.SchedulingSpec{
			Type: infrav1.NodeScheduling,
			Node: &infrav1.NodeSchedulingSpec{NodeSelector: hp.NodeSelector},
		}
	}
	return obj
}

// ScenarioObjects are the scenario's cluster objects plus one workload
// object per stream (its first arrival), as `sim lint` checks them: what
// the webhooks would see, without running anything.
func ScenarioObjects(s *scenarios.Scenario) ([]client.Object, error) {
	objs := ClusterObjects(s)
	arrivals, err := Plan(s, *s.Seed)
	if err != nil {
		return nil, err
	}
	priorities := s.PriorityValues()
	seen := map[string]bool{}
	for _, a := range arrivals {
		if seen[a.Stream.Name] {
			continue
		}
		seen[a.Stream.Name] = true
		obj, err := WorkloadObject(a, priorities)
		if err != nil {
			return nil, err
		}
		objs = append(objs, obj)
	}
	return objs, nil
}
