package manifests

import (
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
)

// TestDecodeTemplate: a template file of one object keeps its file and
// line without a document index, in JSON too.
func TestDecodeTemplate(t *testing.T) {
	obj, probs := DecodeTemplate("job.json", []byte(`{"apiVersion": "batch/v1", "kind": "Job",
 "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "main", "image": "busybox"}]}}}}`))
	if len(probs) > 0 {
		t.Fatalf("problems: %v", probs)
	}
	if _, ok := obj.Obj.(*batchv1.Job); !ok || obj.Kind != "Job" || obj.Source.String() != "job.json:1" {
		t.Errorf("decoded %T %s at %s", obj.Obj, obj.Kind, obj.Source)
	}
	_, probs = DecodeTemplate("job.yaml", []byte("apiVersion: batch/v1\nkind: Job\nspec:\n  template:\n    spec:\n      containers: [{name: main}]\n      restartPolicy: Always\n"))
	if len(probs) != 1 || probs[0].String() != "job.yaml:7: spec.template.spec.restartPolicy: Always: Kubernetes refuses it for a Job, whose pods end: set Never or OnFailure" {
		t.Errorf("problems %v", probs)
	}
}

// TestLoadTemplateReference: a problem with the reference has neither
// File nor Field, for the caller to name the reference.
func TestLoadTemplateReference(t *testing.T) {
	for _, ref := range []string{"", "no-such.yaml", "."} {
		obj, probs := LoadTemplate("testdata", ref)
		if obj != nil || len(probs) != 1 || probs[0].File != "" || probs[0].Field != "" {
			t.Errorf("LoadTemplate(%q) = %v, %v; want one problem without File and Field", ref, obj, probs)
		}
	}
}

// TestDecodeTemplateObject: an inline template's problems have no file
// and no line, only the path in the object.
func TestDecodeTemplateObject(t *testing.T) {
	_, probs := DecodeTemplateObject(map[string]any{"apiVersion": "ray.io/v1", "kind": "RayJob", "spec": map[string]any{"submissionMode": "HTTPMode",
		"rayClusterSpec": map[string]any{"headGroupSpec": map[string]any{"template": map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "head"}}}}}}}})
	if len(probs) != 1 || probs[0].File != "" || probs[0].Line != 0 || probs[0].Field != "spec.submissionMode" || !strings.Contains(probs[0].Msg, "does not submit HTTPMode") {
		t.Errorf("problems %+v", probs)
	}
}
