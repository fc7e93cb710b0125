package scenarios

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// checkNames are an expectation's checks, in the order of the type.
const checkNames = "noEviction: {}, placementMatchesFlavor: {}, fairShare, nominalGuarantee, queueWait, utilization, counts, workload or pendingCounts"

// checkKeys are the keys of an expectation's checks, in the order of the
// type.
var checkKeys = []string{"noEviction", "placementMatchesFlavor", "fairShare", "nominalGuarantee", "queueWait", "utilization", "counts", "workload", "pendingCounts"}

func (v *validator) expectations(p *field.Path) field.ErrorList {
	var errs field.ErrorList
	exps := newNames("expectation", "expectations", "{name: no-evictions, noEviction: {}}")
	for i, e := range v.s.Expectations {
		ep := p.Index(i)
		errs = append(errs, exps.declare(ep.Child("name"), e.Name, dnsSubdomain)...)
		var set []string
		if e.NoEviction != nil {
			set = append(set, "noEviction")
			for j, k := range e.NoEviction.Kinds {
				if !kindKnown(k) {
					errs = append(errs, notSupported(ep.Child("noEviction", "kinds").Index(j), string(k), kindNames()))
				}
			}
		}
		if e.PlacementMatchesFlavor != nil {
			set = append(set, "placementMatchesFlavor")
		}
		if f := e.FairShare; f != nil {
			set = append(set, "fairShare")
			errs = append(errs, v.fairShare(ep.Child("fairShare"), f)...)
		}
		if n := e.NominalGuarantee; n != nil {
			set = append(set, "nominalGuarantee")
			errs = append(errs, v.nominalGuarantee(ep.Child("nominalGuarantee"), n)...)
		}
		if q := e.QueueWait; q != nil {
			set = append(set, "queueWait")
			errs = append(errs, v.queueWait(ep.Child("queueWait"), q)...)
		}
		if u := e.Utilization; u != nil {
			set = append(set, "utilization")
			up := ep.Child("utilization")
			errs = append(errs, v.flavors.ref(up.Child("flavor"), u.Flavor)...)
			if u.Resource == "" {
				errs = append(errs, field.Required(up.Child("resource"), "e.g. nvidia.com/gpu"))
			}
			errs = append(errs, fraction(up.Child("min"), u.Min)...)
		}
		if c := e.Counts; c != nil {
			set = append(set, "counts")
			errs = append(errs, v.counts(ep.Child("counts"), c)...)
		}
		if w := e.Workload; w != nil {
			set = append(set, "workload")
			errs = append(errs, v.workloadExpectation(ep.Child("workload"), w)...)
		}
		if c := e.PendingCounts; c != nil {
			set = append(set, "pendingCounts")
			errs = append(errs, v.pendingCounts(ep.Child("pendingCounts"), c)...)
		}
		switch len(set) {
		case 0:
			errs = append(errs, field.Required(ep, fmt.Sprintf("expectation %q checks nothing: add one of %s", e.Name, checkNames)))
		case 1:
		default:
			errs = append(errs, invalid(ep, fmt.Sprintf("%s set: an expectation holds one check; split it into %d expectations", bothSet(set), len(set))))
		}
	}
	return errs
}

func (v *validator) fairShare(p *field.Path, f *FairShare) field.ErrorList {
	var errs field.ErrorList
	switch {
	case f.Cohort == "":
		errs = append(errs, field.Required(p.Child("cohort"), "name the cohort whose ClusterQueues share quota"))
	case !v.cohorts.Has(f.Cohort) && !v.cqCohorts[f.Cohort]:
		errs = append(errs, withDetail(field.NotFound(p.Child("cohort"), f.Cohort), "no ClusterQueue is in this cohort: set cohort on the ClusterQueues that share"))
	}
	if v.s.KueueSettings()["fairSharing"] == nil {
		errs = append(errs, invalid(p, "Kueue publishes the weighted shares this check reads only with fair sharing on: add cluster.kueue.fairSharing: {preemptionStrategies: [LessThanOrEqualToFinalShare, LessThanInitialShare]}"))
	}
	return append(errs, fraction(p.Child("tolerance"), f.Tolerance)...)
}

func (v *validator) nominalGuarantee(p *field.Path, n *NominalGuarantee) field.ErrorList {
	var errs field.ErrorList
	switch {
	case n.ClusterQueue == "" && n.Cohort == "":
		errs = append(errs, field.Required(p, "name a clusterQueue, or a cohort to check each of its ClusterQueues"))
	case n.ClusterQueue != "" && n.Cohort != "":
		errs = append(errs, invalid(p, "clusterQueue and cohort are both set: give one (a cohort checks each of its ClusterQueues)"))
	case n.ClusterQueue != "":
		errs = append(errs, v.cqs.ref(p.Child("clusterQueue"), n.ClusterQueue)...)
	case !v.cohorts.Has(n.Cohort) && !v.cqCohorts[n.Cohort]:
		errs = append(errs, withDetail(field.NotFound(p.Child("cohort"), n.Cohort), "no ClusterQueue is in this cohort: set cohort on its ClusterQueues"))
	}
	return append(errs, simTime(p.Child("within"), &n.Within)...)
}

func (v *validator) queueWait(p *field.Path, q *QueueWait) field.ErrorList {
	var errs field.ErrorList
	if q.Team != "" {
		errs = append(errs, v.teams.ref(p.Child("team"), q.Team)...)
	}
	if q.Stream != "" {
		errs = append(errs, v.streams.ref(p.Child("stream"), q.Stream)...)
	}
	if !(q.Percentile > 0 && q.Percentile <= 100) {
		errs = append(errs, field.Invalid(p.Child("percentile"), q.Percentile, "must be in (0, 100]: 50 is the median, 95 the 95th percentile, 100 the longest wait"))
	}
	return append(errs, simTime(p.Child("max"), &q.Max)...)
}

func (v *validator) counts(p *field.Path, c *Counts) field.ErrorList {
	errs := v.streams.ref(p.Child("stream"), c.Stream)
	checked := 0
	for _, n := range []struct {
		name string
		n    *int32
	}{{"admitted", c.Admitted}, {"refused", c.Refused}, {"preempted", c.Preempted}, {"finished", c.Finished}} {
		if n.n == nil {
			continue
		}
		checked++
		switch total, known := v.streamCount[c.Stream]; {
		case *n.n < 0:
			errs = append(errs, field.Invalid(p.Child(n.name), *n.n, "must not be negative"))
		case known && *n.n > total:
			errs = append(errs, field.Invalid(p.Child(n.name), *n.n, fmt.Sprintf("stream %s has only %d workloads", c.Stream, total)))
		}
	}
	if checked == 0 {
		errs = append(errs, field.Required(p, "give at least one of admitted, refused, preempted or finished"))
	}
	return errs
}
