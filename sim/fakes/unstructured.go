package fakes

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Notebook and InferenceService have no Go types in kueue-sim's module (the
// notebook controller's and KServe's modules are not used); their fakes
// read and write them as unstructured objects of these kinds.
var (
	notebookGVK = schema.GroupVersionKind{Group: "kubeflow.org", Version: "v1", Kind: "Notebook"}
	isvcGVK     = schema.GroupVersionKind{Group: "serving.kserve.io", Version: "v1beta1", Kind: "InferenceService"}
)

func newUnstructured(gvk schema.GroupVersionKind) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	return u
}

// decodeField decodes the field of u at path into out, leaving out as it is
// when the field is absent.
func decodeField(u *unstructured.Unstructured, out any, path ...string) error {
	v, found, err := unstructured.NestedFieldNoCopy(u.Object, path...)
	if err != nil || !found {
		return err
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("reading %v of %s %s/%s: %w", path, u.GetKind(), u.GetNamespace(), u.GetName(), err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("reading %v of %s %s/%s: %w", path, u.GetKind(), u.GetNamespace(), u.GetName(), err)
	}
	return nil
}

// toUnstructuredValue turns a typed value into the plain JSON value an
// unstructured object holds.
func toUnstructuredValue(v any) (any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	return out, json.Unmarshal(raw, &out)
}
