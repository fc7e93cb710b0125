package scenarios

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/nodes"
)

// managementStates are the DataScienceCluster states of the Kueue component.
var managementStates = []string{"Unmanaged", "Managed", "Removed"}

func (v *validator) cluster(p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(v.s.Cluster.NodePools) == 0 {
		errs = append(errs, field.Required(p.Child("nodePools"), "give at least one node pool, e.g. {name: a100, count: 2, allocatable: {cpu: \"96\", memory: 1Ti, nvidia.com/gpu: \"8\"}}"))
	}
	errs = append(errs, nodes.Spec{Pools: v.s.Cluster.NodePools}.Validate(p.Child("nodePools"))...)
	errs = append(errs, enum(p.Child("openshiftAI", "managementState"), v.s.Cluster.OpenShiftAI.ManagementState, managementStates...)...)
	return errs
}

func (v *validator) queues(p *field.Path) field.ErrorList {
	var errs field.ErrorList
	q := v.s.Queues
	for i, f := range q.ResourceFlavors {
		fp := p.Child("resourceFlavors").Index(i)
		errs = append(errs, v.flavors.declare(fp.Child("name"), f.Name, dnsSubdomain)...)
		errs = append(errs, labelMap(fp.Child("nodeLabels"), f.NodeLabels)...)
	}
	for i, c := range q.Cohorts {
		errs = append(errs, v.cohorts.declare(p.Child("cohorts").Index(i).Child("name"), c.Name, dnsSubdomain)...)
	}
	for i, c := range q.Cohorts {
		cp := p.Child("cohorts").Index(i)
		if c.Parent != "" {
			errs = append(errs, v.cohorts.ref(cp.Child("parent"), c.Parent)...)
		}
		errs = append(errs, weight(cp.Child("fairSharingWeight"), c.FairSharingWeight)...)
	}
	errs = append(errs, v.cohortCycles(p.Child("cohorts"))...)
	for i, pc := range q.PriorityClasses {
		errs = append(errs, v.priorities.declare(p.Child("priorityClasses").Index(i).Child("name"), pc.Name, labelValueName)...)
	}
	for i := range q.ClusterQueues {
		errs = append(errs, v.clusterQueue(p.Child("clusterQueues").Index(i), &q.ClusterQueues[i])...)
	}
	return errs
}

// cohortCycles reports each cycle of cohort parents once, at the first
// cohort of the cycle in the file, in one pass over the chains.
func (v *validator) cohortCycles(p *field.Path) field.ErrorList {
	parent, index := map[string]string{}, map[string]int{}
	for i, c := range v.s.Queues.Cohorts {
		if _, dup := index[c.Name]; !dup {
			parent[c.Name], index[c.Name] = c.Parent, i
		}
	}
	const (
		walking = 1
		done    = 2
	)
	state := map[string]int{}
	var errs field.ErrorList
	for _, c := range v.s.Queues.Cohorts {
		var chain []string
		at := c.Name
		for at != "" && state[at] == 0 {
			state[at] = walking
			chain = append(chain, at)
			at = parent[at]
		}
		if at != "" && state[at] == walking {
			first := firstInFile(parent, index, at)
			errs = append(errs, field.Invalid(p.Index(index[first]).Child("parent"), parent[first], fmt.Sprintf(
				"cohorts form a cycle (%s): a cohort cannot be its own ancestor; remove one parent", cycleText(parent, first))))
		}
		for _, n := range chain {
			state[n] = done
		}
	}
	return errs
}

// firstInFile is the cohort of the cycle through start declared first.
func firstInFile(parent map[string]string, index map[string]int, start string) string {
	first := start
	for at := parent[start]; at != start; at = parent[at] {
		if index[at] < index[first] {
			first = at
		}
	}
	return first
}

func cycleText(parent map[string]string, start string) string {
	names := []string{start}
	for at := parent[start]; at != start; at = parent[at] {
		if len(names) == 5 {
			names = append(names, "...")
			break
		}
		names = append(names, at)
	}
	return strings.Join(append(names, start), " -> ")
}

// The preemption policies Kueue's ClusterQueue accepts.
var (
	withinClusterQueuePolicies = []string{string(kueue.PreemptionPolicyNever), string(kueue.PreemptionPolicyLowerPriority), string(kueue.PreemptionPolicyLowerOrNewerEqualPriority)}
	reclaimPolicies            = []string{string(kueue.PreemptionPolicyNever), string(kueue.PreemptionPolicyLowerPriority), string(kueue.PreemptionPolicyAny)}
	borrowWithinCohortPolicies = []string{string(kueue.BorrowWithinCohortPolicyNever), string(kueue.BorrowWithinCohortPolicyLowerPriority)}
)

func (v *validator) clusterQueue(p *field.Path, cq *ClusterQueue) field.ErrorList {
	errs := v.cqs.declare(p.Child("name"), cq.Name, dnsSubdomain)
	if cq.Cohort != "" {
		v.cqCohorts[cq.Cohort] = true
		if len(v.s.Queues.Cohorts) > 0 && !v.cohorts.Has(cq.Cohort) {
			e := notFound(p.Child("cohort"), cq.Cohort, v.cohorts)
			e.Detail += "; or declare no cohorts at all to let ClusterQueues name them freely"
			errs = append(errs, e)
		}
	}
	if len(cq.ResourceGroups) == 0 {
		errs = append(errs, field.Required(p.Child("resourceGroups"), "give at least one group, e.g. [{flavors: [{name: a100, resources: {nvidia.com/gpu: {nominal: 8}}}]}]"))
	}
	if len(cq.ResourceGroups) > MaxResourceGroups {
		errs = append(errs, field.TooMany(p.Child("resourceGroups"), len(cq.ResourceGroups), MaxResourceGroups))
	}
	seenFlavor, seenRes := map[string]string{}, sets.New[corev1.ResourceName]()
	for gi, g := range cq.ResourceGroups {
		gp := p.Child("resourceGroups").Index(gi)
		if len(g.Flavors) == 0 {
			errs = append(errs, field.Required(gp.Child("flavors"), "a group needs at least one flavor, e.g. [{name: a100, resources: {nvidia.com/gpu: {nominal: 8}}}]"))
		}
		if len(g.Flavors) > MaxFlavorsPerGroup {
			errs = append(errs, field.TooMany(gp.Child("flavors"), len(g.Flavors), MaxFlavorsPerGroup))
		}
		groupRes := sets.New[corev1.ResourceName]()
		for fi, f := range g.Flavors {
			fp := gp.Child("flavors").Index(fi)
			errs = append(errs, v.flavors.ref(fp.Child("name"), f.Name)...)
			if first, dup := seenFlavor[f.Name]; dup && f.Name != "" {
				errs = append(errs, withDetail(field.Duplicate(fp.Child("name"), f.Name), first+" already gives this flavor's quotas: merge them"))
			} else {
				seenFlavor[f.Name] = fp.String()
			}
			errs = append(errs, v.flavorQuotas(fp.Child("resources"), cq, f)...)
			for r := range f.Resources {
				groupRes.Insert(r)
			}
		}
		for _, r := range sets.List(groupRes) {
			if seenRes.Has(r) {
				errs = append(errs, invalid(gp.Child("flavors"), fmt.Sprintf(
					"resource %s is covered by an earlier group too: keep each resource in one group", r)))
			}
		}
		seenRes = seenRes.Union(groupRes)
	}
	if pr := cq.Preemption; pr != nil {
		pp := p.Child("preemption")
		errs = append(errs, enum(pp.Child("withinClusterQueue"), string(pr.WithinClusterQueue), withinClusterQueuePolicies...)...)
		errs = append(errs, enum(pp.Child("reclaimWithinCohort"), string(pr.ReclaimWithinCohort), reclaimPolicies...)...)
		if b := pr.BorrowWithinCohort; b != nil {
			errs = append(errs, enum(pp.Child("borrowWithinCohort", "policy"), string(b.Policy), borrowWithinCohortPolicies...)...)
		}
	}
	errs = append(errs, weight(p.Child("fairSharingWeight"), cq.FairSharingWeight)...)
	return errs
}

func (v *validator) flavorQuotas(p *field.Path, cq *ClusterQueue, f FlavorQuotas) field.ErrorList {
	var errs field.ErrorList
	if len(f.Resources) == 0 {
		errs = append(errs, field.Required(p, "give quotas, e.g. {nvidia.com/gpu: {nominal: 8}}"))
	}
	if len(f.Resources) > MaxResourcesPerFlavor {
		errs = append(errs, field.TooMany(p, len(f.Resources), MaxResourcesPerFlavor))
	}
	for _, r := range sortedResources(f.Resources) {
		q := f.Resources[r]
		rp := p.Key(string(r))
		errs = append(errs, resourceName(rp, r, true)...)
		errs = append(errs, nonNegative(rp.Child("nominal"), &q.Nominal)...)
		errs = append(errs, nonNegative(rp.Child("borrowingLimit"), q.BorrowingLimit)...)
		errs = append(errs, nonNegative(rp.Child("lendingLimit"), q.LendingLimit)...)
		if q.LendingLimit != nil && q.LendingLimit.Cmp(q.Nominal) > 0 {
			errs = append(errs, field.Invalid(rp.Child("lendingLimit"), q.LendingLimit.String(), fmt.Sprintf(
				"must not exceed nominal (%s): a ClusterQueue lends at most its own quota", q.Nominal.String())))
		}
		if cq.Cohort == "" && q.BorrowingLimit != nil {
			errs = append(errs, field.Forbidden(rp.Child("borrowingLimit"), "a ClusterQueue borrows only within a cohort: set the ClusterQueue's cohort or remove borrowingLimit"))
		}
		if cq.Cohort == "" && q.LendingLimit != nil {
			errs = append(errs, field.Forbidden(rp.Child("lendingLimit"), "a ClusterQueue lends only within a cohort: set the ClusterQueue's cohort or remove lendingLimit"))
		}
	}
	return errs
}

func sortedResources[V any](m map[corev1.ResourceName]V) []corev1.ResourceName {
	out := make([]corev1.ResourceName, 0, len(m))
	for r := range m {
		out = append(out, r)
	}
	return sets.List(sets.New(out...))
}
