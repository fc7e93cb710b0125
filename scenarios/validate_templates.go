package scenarios

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// A templated stream's object is checked where Load reads it (package
// manifests: its type, and what its kind's API server, webhooks or
// operator refuse); here, against the scenario: the stream's fields the
// object holds instead, its team's namespace, and kueue-sim's limits. The
// problems of a template file are reported in that file, those of an
// inline one in the scenario.

// streamTemplate checks a templated stream.
func (v *validator) streamTemplate(wp *field.Path, w *Stream) field.ErrorList {
	var errs field.ErrorList
	if w.Replicas != nil {
		errs = append(errs, field.Forbidden(wp.Child("replicas"), "the template holds its pods' counts (a Job's parallelism, a PyTorchJob's or a Ray worker group's replicas, ...): "+
			"move them into the object and remove replicas"))
	}
	if w.Requests != nil {
		errs = append(errs, field.Forbidden(wp.Child("requests"), "the template's containers hold their requests: move them into the object's resources.requests and remove requests"))
	}
	t := w.Template.Loaded
	if t == nil {
		if !w.Template.failed {
			errs = append(errs, invalid(wp.Child("template"), "not loaded: Load and LoadFile read templates, relative to the scenario's folder"))
		}
		return errs
	}
	if team := v.teamByName[w.Team]; team != nil {
		if ns := t.Object.GetNamespace(); ns != "" && ns != team.Namespace {
			errs = append(errs, v.templateError(t, invalid(field.NewPath("metadata", "namespace"), fmt.Sprintf(
				"%s, but stream %s's team %s lives in namespace %s, where kueue-sim submits the object: remove metadata.namespace or make it %s",
				ns, w.Name, w.Team, team.Namespace, team.Namespace)))...)
		}
	}
	if v.templatesChecked[t.Object] {
		return errs // another stream shares the file: its pods are checked
	}
	v.templatesChecked[t.Object] = true
	return append(errs, v.templatePods(t)...)
}

// templatePods checks a template's pods: their number, and the resources
// their containers ask for, as a stream's requests are checked.
func (v *validator) templatePods(t *LoadedTemplate) field.ErrorList {
	var errs field.ErrorList
	var total int64
	var roles []string
	for _, ps := range t.PodSets() {
		total += int64(ps.Count)
		roles = append(roles, fmt.Sprintf("%s %d", ps.Name, ps.Count))
		for _, r := range ps.resources() {
			for _, name := range sortedResources(r.list) {
				q := r.list[name]
				rp := r.path.Key(string(name))
				var es field.ErrorList
				es = append(es, resourceName(rp, name, false)...)
				if q.Sign() < 0 {
					es = append(es, field.Invalid(rp, q.String(), "must not be negative"))
				} else {
					es = append(es, extendedWhole(rp, name, q)...)
				}
				for _, e := range es {
					errs = append(errs, v.templateError(t, e)...)
				}
			}
		}
	}
	pods := "no role"
	if len(roles) > 0 {
		pods = strings.Join(roles, ", ")
	}
	switch {
	case total < 1:
		errs = append(errs, v.templateError(t, objectError(fmt.Sprintf(
			"the object runs no pod (%s): give its roles at least one pod", pods)))...)
	case total > MaxReplicas:
		errs = append(errs, v.templateError(t, objectError(fmt.Sprintf(
			"the object runs %d pods (%s), over the limit of %d pods per workload: make its roles smaller", total, pods, MaxReplicas)))...)
	}
	return errs
}

// templateError reports e, whose field path is the object's: in the
// template's file (recorded, none returned), or for an inline template as
// a field error of the scenario.
func (v *validator) templateError(t *LoadedTemplate, e *field.Error) field.ErrorList {
	if t.field != "" {
		e.Field = joinField(t.field, e.Field)
		return field.ErrorList{e}
	}
	v.mprobs = append(v.mprobs, problemOf(t.at.Problem(e.Field, message(e))))
	return nil
}

// objectError is a problem with the template's object as a whole.
func objectError(msg string) *field.Error {
	return &field.Error{Type: field.ErrorTypeInvalid, BadValue: field.OmitValueType{}, Detail: msg}
}
