package kube

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
)

// lastApplied is kubectl's copy of the applied object.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// droppedMetadata are the fields the API server or controllers set: an
// imported object is applied as new.
var droppedMetadata = []string{
	"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields",
	"ownerReferences", "finalizers", "selfLink", "deletionTimestamp",
	"deletionGracePeriodSeconds", "generateName",
}

// clean strips what the cluster added to an object (status, the metadata
// above, kubectl's last-applied annotation) in place, and returns it.
func clean(obj map[string]any) map[string]any {
	delete(obj, "status")
	meta, _ := obj["metadata"].(map[string]any)
	if meta == nil {
		return obj
	}
	for _, f := range droppedMetadata {
		delete(meta, f)
	}
	if ann, ok := meta["annotations"].(map[string]any); ok {
		delete(ann, lastApplied)
		if len(ann) == 0 {
			delete(meta, "annotations")
		}
	}
	if labels, ok := meta["labels"].(map[string]any); ok && len(labels) == 0 {
		delete(meta, "labels")
	}
	return obj
}

// toMap is a typed object as a cleaned manifest with apiVersion and kind.
func toMap(obj runtime.Object, apiVersion, kind string) (map[string]any, error) {
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", kind, err)
	}
	m["apiVersion"] = apiVersion
	m["kind"] = kind
	return clean(m), nil
}
