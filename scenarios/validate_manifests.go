package scenarios

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
	"github.com/kueue-sim/kueue-sim/scenarios/manifests"
)

// The manifests' objects are declared beside the schema's, so that a
// reference from either finds both and a name defined in both is reported,
// at the schema's declaration, naming the manifest.

// manifestNames declares the names of the manifests' cluster-scoped Kueue
// objects, before the schema declares its own.
func (v *validator) manifestNames() {
	set := v.s.Loaded.Manifests
	for _, o := range set.ResourceFlavors() {
		declareManifest(v.flavors, o.Object)
	}
	for _, o := range set.Cohorts() {
		declareManifest(v.cohorts, o.Object)
	}
	for _, o := range set.WorkloadPriorityClasses() {
		declareManifest(v.priorities, o.Object)
	}
	for _, o := range set.ClusterQueues() {
		declareManifest(v.cqs, o.Object)
		if c := o.Obj.Spec.CohortName; c != "" {
			v.cqCohorts[string(c)] = true
		}
	}
}

// declareManifest records the name of a manifest's object. A name the
// manifests define twice is reported by manifests.Load: the first stands.
func declareManifest(n *names, o manifests.Object) {
	if name := o.Obj.GetName(); !n.Has(name) {
		n.at[name] = o.Source.String()
	}
}

// manifestQueues checks the references of the manifests' ClusterQueues and
// DataScienceCluster, once the schema's names are declared too.
func (v *validator) manifestQueues() {
	set := v.s.Loaded.Manifests
	for _, o := range set.ClusterQueues() {
		for gi, g := range o.Obj.Spec.ResourceGroups {
			for fi, f := range g.Flavors {
				p := field.NewPath("spec", "resourceGroups").Index(gi).Child("flavors").Index(fi).Child("name")
				for _, e := range v.flavors.ref(p, string(f.Name)) {
					v.manifestProblem(o.Object, e)
				}
			}
		}
	}
	for _, o := range set.DataScienceClusters() {
		if v.s.Loaded.ManagementStateSet {
			v.manifestProblem(o.Object, invalid(field.NewPath("spec", "components", "kueue", "managementState"),
				"cluster.openshiftAI.managementState is set too: the manifests' DataScienceCluster replaces the one kueue-sim makes from it; set the state in one place"))
		}
	}
}

// manifestNamespaced checks the manifests' namespaced objects, once the
// teams' namespaces and LocalQueues are declared: each lives in a team's
// namespace or a Namespace of the manifests, and the LocalQueues join their
// namespace's.
func (v *validator) manifestNamespaced() {
	set := v.s.Loaded.Manifests
	for _, o := range set.Namespaces() {
		v.namespaces[o.Obj.Name] = true
	}
	teamNS := map[string]bool{}
	for _, t := range v.s.Teams {
		teamNS[t.Namespace] = true
	}
	inNamespace := func(o manifests.Object) bool {
		ns := o.Obj.GetNamespace()
		if teamNS[ns] || v.namespaces[ns] {
			return true
		}
		v.manifestProblem(o, withDetail(field.NotFound(field.NewPath("metadata", "namespace"), ns), fmt.Sprintf(
			"no team has this namespace and the manifests define no such Namespace: add a team {name: %s, namespace: %s} or a Namespace to the manifests", ns, ns)))
		return false
	}
	for _, o := range set.LocalQueues() {
		for _, e := range v.cqs.ref(field.NewPath("spec", "clusterQueue"), string(o.Obj.Spec.ClusterQueue)) {
			v.manifestProblem(o.Object, e)
		}
		if !inNamespace(o.Object) {
			continue
		}
		ns := o.Obj.Namespace
		lqs := v.localQueues[ns]
		if lqs == nil {
			lqs = newNames("LocalQueue", "the manifests' LocalQueues of namespace "+ns, "{name: gpu, clusterQueue: research}")
			v.localQueues[ns] = lqs
		}
		if first, dup := lqs.at[o.Obj.Name]; dup {
			v.manifestProblem(o.Object, withDetail(field.Duplicate(field.NewPath("metadata", "name"), o.Obj.Name), fmt.Sprintf(
				"%s also defines LocalQueue %s/%s: remove one", first, ns, o.Obj.Name)))
			continue
		}
		lqs.at[o.Obj.Name] = o.Source.String()
	}
	for _, o := range set.HardwareProfiles() {
		declareManifest(v.profiles, o.Object)
		if !inNamespace(o.Object) {
			continue
		}
		if sc := o.Obj.Spec.Scheduling; sc != nil && sc.Type == infrav1.QueueScheduling && sc.Kueue != nil {
			kp := field.NewPath("spec", "scheduling", "kueue")
			if errs := v.queuesOf(o.Obj.Namespace).ref(kp.Child("localQueueName"), sc.Kueue.LocalQueueName); len(errs) > 0 {
				errs[0].Detail = fmt.Sprintf("namespace %s has no such LocalQueue: %s", o.Obj.Namespace, errs[0].Detail)
				v.manifestProblem(o.Object, errs[0])
			}
			if sc.Kueue.PriorityClass != "" {
				for _, e := range v.priorities.ref(kp.Child("priorityClass"), sc.Kueue.PriorityClass) {
					v.manifestProblem(o.Object, e)
				}
			}
		}
	}
	for _, o := range set.OdhDashboardConfigs() {
		inNamespace(o.Object)
	}
}
