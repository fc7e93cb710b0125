package webhook

import (
	"context"

	"k8s.io/apimachinery/pkg/util/validation/field"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// Default runs rule 2 on w, setting its labels from its hardware profile,
// and returns the warnings. old is the object before an UPDATE, nil on
// CREATE: on UPDATE the rule applies only when w changes its profile
// annotations, so that editing or deleting a profile later neither relabels
// running workloads (Kueue refuses a queue change on an admitted job) nor
// wedges their updates. An error means a fact could not be read.
func Default(ctx context.Context, f Facts, w, old *Workload) ([]string, field.ErrorList, error) {
	if w.Deleting || (old != nil && !profileChanged(old, w)) {
		return nil, nil, nil
	}
	ns, name, ok := w.ProfileRef()
	if !ok {
		return nil, nil, nil
	}
	p, err := f.HardwareProfile(ctx, ns, name)
	if err != nil {
		return nil, nil, err
	}
	if p == nil {
		return nil, field.ErrorList{MissingHardwareProfile(w, ns, name)}, nil
	}
	return ApplyHardwareProfile(w, p), nil, nil
}

// Validate runs rules 1, 3, 4 and 5 on w. old is the object before an
// UPDATE, nil on CREATE: on UPDATE, rules 3 to 5 apply only when w changed
// what they read. An error means a fact could not be read.
func Validate(ctx context.Context, f Facts, w, old *Workload) (field.ErrorList, error) {
	if w.Deleting {
		return nil, nil
	}
	s, err := ScopeFor(ctx, f, w.Namespace)
	if err != nil || !s.Enforced() {
		return nil, err
	}
	errs := ValidateQueueLabel(w, s)
	if old == nil || profileChanged(old, w) {
		if ns, name, ok := w.ProfileRef(); ok {
			p, err := f.HardwareProfile(ctx, ns, name)
			if err != nil {
				return nil, err
			}
			// A missing profile is Default's error.
			if p != nil {
				errs = append(errs, ValidateProfileScheduling(w, s, p)...)
			}
		}
	}
	if old == nil || old.Annotations[AcceleratorNameAnnotation] != w.Annotations[AcceleratorNameAnnotation] {
		errs = append(errs, ValidateAccelerator(w, s)...)
	}
	if w.Kind == Notebook.Kind && (old == nil || old.Labels[QueueLabel] != w.Labels[QueueLabel]) {
		nerrs, err := validateNotebook(ctx, f, w, s)
		if err != nil {
			return nil, err
		}
		errs = append(errs, nerrs...)
	}
	return errs, nil
}

// ScopeFor reads the scope of namespace ns.
func ScopeFor(ctx context.Context, f Facts, ns string) (Scope, error) {
	dsc, err := f.DataScienceCluster(ctx)
	if err != nil {
		return Scope{}, err
	}
	n, err := f.Namespace(ctx, ns)
	if err != nil {
		return Scope{}, err
	}
	return ScopeOf(dsc, ns, n), nil
}

// validateNotebook reads the queue of Notebook w and runs rule 5.
func validateNotebook(ctx context.Context, f Facts, w *Workload, s Scope) (field.ErrorList, error) {
	q, _ := w.Queue()
	if q == "" {
		return nil, nil
	}
	lq, err := f.LocalQueue(ctx, w.Namespace, q)
	if err != nil {
		return nil, err
	}
	var cq *kueue.ClusterQueue
	if lq != nil {
		if cq, err = f.ClusterQueue(ctx, string(lq.Spec.ClusterQueue)); err != nil {
			return nil, err
		}
	}
	var cqs []kueue.ClusterQueue
	var cohorts []kueue.Cohort
	if cq != nil && canBorrow(cq) {
		if cqs, err = f.ClusterQueues(ctx); err != nil {
			return nil, err
		}
		if cohorts, err = f.Cohorts(ctx); err != nil {
			return nil, err
		}
	}
	return ValidateNotebookQueue(w, s, lq, cq, cqs, cohorts), nil
}

func profileChanged(old, w *Workload) bool {
	ons, on, _ := old.ProfileRef()
	ns, n, _ := w.ProfileRef()
	return ons != ns || on != n
}
