package webhook

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// ValidateNotebookQueue is rule 5: where the policy is enforced, a Notebook
// may only name a LocalQueue whose ClusterQueue is non-preemptive. lq is the
// LocalQueue the Notebook names and cq its ClusterQueue (nil when absent);
// cqs and cohorts are every ClusterQueue and Cohort, read only when cq is in
// a cohort.
func ValidateNotebookQueue(w *Workload, s Scope, lq *kueue.LocalQueue, cq *kueue.ClusterQueue, cqs []kueue.ClusterQueue, cohorts []kueue.Cohort) field.ErrorList {
	q, _ := w.Queue()
	if w.Kind != Notebook.Kind || !s.Enforced() || w.Deleting || q == "" {
		return nil
	}
	fix := "To fix: name a LocalQueue whose ClusterQueue has preemption.withinClusterQueue Never and preemption.reclaimWithinCohort Never " +
		"and cannot borrow where another ClusterQueue reclaims ("
	if q != s.DefaultLocalQueue {
		fix += fmt.Sprintf("out of the box, the platform's default LocalQueue %q leads to such a ClusterQueue; ", s.DefaultLocalQueue)
	}
	fix += fmt.Sprintf("`kubectl get localqueues -n %s` lists the LocalQueues)", w.Namespace)
	why := "Notebooks are interactive and must not be preempted"
	switch {
	case lq == nil:
		return field.ErrorList{field.Invalid(queuePath, q, fmt.Sprintf(
			"%s names LocalQueue %q, which does not exist in namespace %q, so nothing shows it is non-preemptive (%s). %s, or create LocalQueue %q",
			w, q, w.Namespace, why, fix, q)).WithOrigin(RuleNotebookQueue)}
	case cq == nil:
		return field.ErrorList{field.Invalid(queuePath, q, fmt.Sprintf(
			"%s names LocalQueue %q, whose ClusterQueue %q does not exist, so nothing shows it is non-preemptive (%s). %s",
			w, q, lq.Spec.ClusterQueue, why, fix)).WithOrigin(RuleNotebookQueue)}
	}
	risks := PreemptionRisks(cq, cqs, cohorts)
	if len(risks) == 0 {
		return nil
	}
	return field.ErrorList{field.Forbidden(queuePath, fmt.Sprintf(
		"%s names LocalQueue %q, whose ClusterQueue %q is preemptive (%s): %s. %s, or ask an admin to make ClusterQueue %q non-preemptive",
		w, q, cq.Name, why, strings.Join(risks, "; "), fix, cq.Name)).WithOrigin(RuleNotebookQueue)}
}

// PreemptionRisks says why ClusterQueue cq is not non-preemptive in the
// sense of rule 5, one reason each; none means it is. cqs and cohorts are
// every ClusterQueue and Cohort: a ClusterQueue that can borrow in a cohort
// tree is at risk from every other ClusterQueue of that tree that reclaims.
// Preemption policies are read, never simulated: Kueue decides.
func PreemptionRisks(cq *kueue.ClusterQueue, cqs []kueue.ClusterQueue, cohorts []kueue.Cohort) []string {
	var risks []string
	p := preemptionOf(cq)
	if p.WithinClusterQueue != kueue.PreemptionPolicyNever {
		risks = append(risks, fmt.Sprintf(
			"its preemption.withinClusterQueue is %s, not Never: a pending workload of higher priority in ClusterQueue %q can preempt it",
			p.WithinClusterQueue, cq.Name))
	}
	if p.ReclaimWithinCohort != kueue.PreemptionPolicyNever {
		risks = append(risks, fmt.Sprintf(
			"its preemption.reclaimWithinCohort is %s, not Never: ClusterQueue %q preempts in its cohort",
			p.ReclaimWithinCohort, cq.Name))
	}
	if !canBorrow(cq) {
		return risks
	}
	root := cohortRoot(cq.Spec.CohortName, cohorts)
	others := make([]kueue.ClusterQueue, 0, len(cqs))
	for _, o := range cqs {
		if o.Name != cq.Name && o.Spec.CohortName != "" && cohortRoot(o.Spec.CohortName, cohorts) == root {
			others = append(others, o)
		}
	}
	sort.Slice(others, func(i, j int) bool { return others[i].Name < others[j].Name })
	for i := range others {
		if r := preemptionOf(&others[i]).ReclaimWithinCohort; r != kueue.PreemptionPolicyNever {
			risks = append(risks, fmt.Sprintf(
				"it can borrow in cohort %q, where ClusterQueue %q has preemption.reclaimWithinCohort %s: %q can preempt it to reclaim borrowed quota",
				root, others[i].Name, r, others[i].Name))
		}
	}
	return risks
}

// preemptionOf returns cq's preemption policies with the API's defaults
// (Never) filled in.
func preemptionOf(cq *kueue.ClusterQueue) kueue.ClusterQueuePreemption {
	var p kueue.ClusterQueuePreemption
	if cq.Spec.Preemption != nil {
		p = *cq.Spec.Preemption
	}
	if p.WithinClusterQueue == "" {
		p.WithinClusterQueue = kueue.PreemptionPolicyNever
	}
	if p.ReclaimWithinCohort == "" {
		p.ReclaimWithinCohort = kueue.PreemptionPolicyNever
	}
	return p
}

// canBorrow is true when cq is in a cohort and some of its quotas has no
// borrowing limit or a non-zero one.
func canBorrow(cq *kueue.ClusterQueue) bool {
	if cq.Spec.CohortName == "" {
		return false
	}
	for _, rg := range cq.Spec.ResourceGroups {
		for _, fq := range rg.Flavors {
			for _, r := range fq.Resources {
				if r.BorrowingLimit == nil || !r.BorrowingLimit.IsZero() {
					return true
				}
			}
		}
	}
	return false
}

// cohortRoot follows Cohort parents from name to the root of its tree. A
// cohort without a Cohort object is its own root. A cycle (which Kueue
// refuses to use) counts as one tree, named by its least member.
func cohortRoot(name kueue.CohortReference, cohorts []kueue.Cohort) kueue.CohortReference {
	parent := make(map[kueue.CohortReference]kueue.CohortReference, len(cohorts))
	for _, c := range cohorts {
		parent[kueue.CohortReference(c.Name)] = c.Spec.ParentName
	}
	var path []kueue.CohortReference
	at := map[kueue.CohortReference]int{}
	for {
		if i, ok := at[name]; ok {
			least := path[i]
			for _, c := range path[i:] {
				least = min(least, c)
			}
			return least
		}
		at[name] = len(path)
		path = append(path, name)
		p := parent[name]
		if p == "" {
			return name
		}
		name = p
	}
}
