package engine

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// A templated stream (scenarios.Template) submits copies of the user's own
// object: each kind's fromTemplate makes a copy the arrival's with the
// helpers here, and its pods are counted from the object's pod sets.

// templateObject is a templated stream's object as loaded, or nil.
func templateObject(st *scenarios.Stream) client.Object {
	if st.Template == nil || st.Template.Loaded == nil {
		return nil
	}
	return st.Template.Loaded.Object
}

// templatePods are the pod sets of a running workload of a templated
// stream: its object's as written (scenarios.LoadedTemplate.PodSets), as
// its kind's operator changes them (kindWithOperatorPods).
func templatePods(st *scenarios.Stream) []scenarios.TemplatePodSet {
	obj := templateObject(st)
	if obj == nil {
		return nil
	}
	sets := slices.Clone(st.Template.Loaded.PodSets())
	if k, ok := kindOf(st.Kind).(kindWithOperatorPods); ok {
		return k.operatorPods(obj, sets)
	}
	return sets
}

// podLabels are the labels every pod of the arrival carries, so that it
// maps back to the arrival.
func (o objectSpec) podLabels() map[string]string {
	return map[string]string{WorkloadLabel: o.meta.Name, StreamLabel: o.stream.Name}
}

// stamp makes obj, a copy of a templated stream's object, the arrival's:
// its name and namespace, and the labels and annotations of o.meta (the
// arrival's, the stream's queue and priority class, its hardware profile)
// over the object's own.
func (o objectSpec) stamp(obj client.Object) {
	obj.SetName(o.meta.Name)
	obj.SetGenerateName("")
	obj.SetNamespace(o.meta.Namespace)
	obj.SetLabels(withEntries(obj.GetLabels(), o.meta.Labels))
	if len(o.meta.Annotations) > 0 {
		obj.SetAnnotations(withEntries(obj.GetAnnotations(), o.meta.Annotations))
	}
}

// stampPod gives a pod template of a templated stream's object the
// arrival's labels and InstantGate (hold.go).
func (o objectSpec) stampPod(t *corev1.PodTemplateSpec) {
	t.Labels = withEntries(t.Labels, o.podLabels())
	t.Spec.SchedulingGates = withInstantGate(t.Spec.SchedulingGates)
}

// withEntries is m with add's entries set (m itself, or a new map when m
// is nil).
func withEntries(m, add map[string]string) map[string]string {
	if m == nil {
		m = make(map[string]string, len(add))
	}
	maps.Copy(m, add)
	return m
}

// withInstantGate is gates with InstantGate last, unless it holds it.
func withInstantGate(gates []corev1.PodSchedulingGate) []corev1.PodSchedulingGate {
	if slices.ContainsFunc(gates, func(g corev1.PodSchedulingGate) bool { return g.Name == InstantGate }) {
		return gates
	}
	return append(gates, corev1.PodSchedulingGate{Name: InstantGate})
}

// gateUnstructured adds InstantGate to the schedulingGates of the pod spec
// at path in u (a Notebook's or an InferenceService's), unless they hold
// it.
func gateUnstructured(u *unstructured.Unstructured, path ...string) error {
	field := append(slices.Clone(path), "schedulingGates")
	gates, _, err := unstructured.NestedSlice(u.Object, field...)
	if err != nil {
		return fmt.Errorf("%s: %w", strings.Join(field, "."), err)
	}
	for _, g := range gates {
		if m, ok := g.(map[string]any); ok && m["name"] == InstantGate {
			return nil
		}
	}
	gates = append(gates, map[string]any{"name": InstantGate})
	if err := unstructured.SetNestedSlice(u.Object, gates, field...); err != nil {
		return fmt.Errorf("%s: %w", strings.Join(field, "."), err)
	}
	return nil
}

// notOfKind is the error of a template object whose type is not its
// stream's kind's.
func notOfKind(obj client.Object, want string) error {
	return fmt.Errorf("the template holds a %T, not a %s", obj, want)
}

// unstructuredOfKind is obj as an unstructured object of kind, or an error.
func unstructuredOfKind(obj client.Object, kind string) (*unstructured.Unstructured, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok || u.GetKind() != kind {
		return nil, notOfKind(obj, kind)
	}
	return u, nil
}
