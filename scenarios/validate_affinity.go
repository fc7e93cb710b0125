package scenarios

import (
	"fmt"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Limits of a stream's required node affinity.
const (
	// MaxAffinityRequirements bounds the requirements of one stream.
	MaxAffinityRequirements = 16
	// MaxAffinityValues bounds the values of one requirement.
	MaxAffinityValues = 64
)

// affinityOperators are the node-selector operators Kubernetes accepts.
var affinityOperators = []string{
	string(corev1.NodeSelectorOpIn), string(corev1.NodeSelectorOpNotIn),
	string(corev1.NodeSelectorOpExists), string(corev1.NodeSelectorOpDoesNotExist),
	string(corev1.NodeSelectorOpGt), string(corev1.NodeSelectorOpLt),
}

// streamPlacement checks the fields that place a stream's pods and time
// them one by one: requiredNodeAffinity and durations.
func (v *validator) streamPlacement(p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := range v.s.Workloads {
		w := &v.s.Workloads[i]
		wp := p.Index(i)
		switch {
		case len(w.RequiredNodeAffinity) > 0 && w.Template != nil:
			errs = append(errs, field.Forbidden(wp.Child("requiredNodeAffinity"), "the template's pods hold their node affinity: move the requirements into the pod templates' "+
				"affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution and remove requiredNodeAffinity"))
		case len(w.RequiredNodeAffinity) > 0:
			errs = append(errs, nodeAffinity(wp.Child("requiredNodeAffinity"), w)...)
		}
		if len(w.Durations) > 0 {
			errs = append(errs, durationList(wp, w)...)
		}
	}
	return errs
}

func nodeAffinity(p *field.Path, w *Stream) field.ErrorList {
	var errs field.ErrorList
	if w.Kind == KindInferenceService {
		errs = append(errs, field.Forbidden(p, "not supported for InferenceService: use a ResourceFlavor's nodeLabels"))
	}
	if n := len(w.RequiredNodeAffinity); n > MaxAffinityRequirements {
		return append(errs, field.TooMany(p, n, MaxAffinityRequirements))
	}
	for i, r := range w.RequiredNodeAffinity {
		errs = append(errs, requirement(p.Index(i), r)...)
	}
	return errs
}

// requirement checks one node-selector requirement as the API server does.
func requirement(p *field.Path, r corev1.NodeSelectorRequirement) field.ErrorList {
	var errs field.ErrorList
	if r.Key == "" {
		errs = append(errs, field.Required(p.Child("key"), "a node label key, e.g. nvidia.com/gpu.product"))
	} else {
		for _, msg := range validation.IsQualifiedName(r.Key) {
			errs = append(errs, field.Invalid(p.Child("key"), r.Key, msg))
		}
	}
	if len(r.Values) > MaxAffinityValues {
		errs = append(errs, field.TooMany(p.Child("values"), len(r.Values), MaxAffinityValues))
		return errs
	}
	for i, val := range r.Values {
		for _, msg := range validation.IsValidLabelValue(val) {
			errs = append(errs, field.Invalid(p.Child("values").Index(i), val, msg))
		}
	}
	switch r.Operator {
	case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn:
		if len(r.Values) == 0 {
			errs = append(errs, field.Required(p.Child("values"), "In and NotIn need at least one value"))
		}
	case corev1.NodeSelectorOpExists, corev1.NodeSelectorOpDoesNotExist:
		if len(r.Values) > 0 {
			errs = append(errs, field.Forbidden(p.Child("values"), "Exists and DoesNotExist take no values"))
		}
	case corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt:
		if len(r.Values) != 1 {
			errs = append(errs, field.Invalid(p.Child("values"), len(r.Values), "Gt and Lt take exactly one integer value"))
		} else if _, err := strconv.ParseInt(r.Values[0], 10, 64); err != nil {
			errs = append(errs, field.Invalid(p.Child("values").Index(0), r.Values[0], "must be an integer for Gt and Lt"))
		}
	case "":
		errs = append(errs, field.Required(p.Child("operator"), "one of In, NotIn, Exists, DoesNotExist, Gt, Lt"))
	default:
		errs = append(errs, notSupported(p.Child("operator"), string(r.Operator), affinityOperators))
	}
	return errs
}

// durationList checks a stream's run times given one by one.
func durationList(wp *field.Path, w *Stream) field.ErrorList {
	var errs field.ErrorList
	p := wp.Child("durations")
	if w.Duration != nil {
		errs = append(errs, field.Forbidden(p, "give duration (a distribution) or durations (one per workload), not both"))
	}
	if c := countOf(w); int64(len(w.Durations)) != int64(c) {
		errs = append(errs, field.Invalid(p, len(w.Durations), fmt.Sprintf("lists %d durations but the stream has %d workloads: give one per workload, in arrival order", len(w.Durations), c)))
	}
	bad := 0
	for i := range w.Durations {
		if e := positiveDuration(p.Index(i), &w.Durations[i]); len(e) > 0 {
			if bad++; bad <= maxTimeProblems {
				errs = append(errs, e...)
			}
		}
	}
	if bad > maxTimeProblems {
		errs = append(errs, invalid(p, fmt.Sprintf("%d more durations are out of range: each must be positive and at most one year (8760h)", bad-maxTimeProblems)))
	}
	return errs
}
