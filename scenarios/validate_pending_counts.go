package scenarios

import (
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func (v *validator) pendingCounts(p *field.Path, c *PendingCountsExpectation) field.ErrorList {
	errs := v.cqs.ref(p.Child("clusterQueue"), c.ClusterQueue)
	if c.At == nil {
		errs = append(errs, field.Required(p.Child("at"), "the simulated time the counts are read at, e.g. at: 5m"))
	} else {
		errs = append(errs, v.runTime(p.Child("at"), c.At)...)
	}
	checked := 0
	for _, n := range []struct {
		name string
		n    *int32
	}{{"active", c.Active}, {"inadmissible", c.Inadmissible}} {
		if n.n == nil {
			continue
		}
		checked++
		if *n.n < 0 {
			errs = append(errs, field.Invalid(p.Child(n.name), *n.n, "must not be negative: 0 says none"))
		}
	}
	if checked == 0 {
		errs = append(errs, field.Required(p, "give active, inadmissible or both: the counts Kueue's kueue_pending_workloads gauge publishes for the ClusterQueue"))
	}
	return errs
}
