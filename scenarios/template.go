package scenarios

import (
	"bytes"
	"encoding/json"
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kueue-sim/kueue-sim/scenarios/manifests"
)

// Template is a stream's own object: a manifest of one Job, PyTorchJob,
// RayJob, RayCluster, Notebook, InferenceService or raw Workload that every
// arrival submits as written, but for its name, namespace, queue label and
// what ends it at its simulated duration. In the scenario it is either the
// path of a YAML file of one object, relative to the scenario's folder, or
// the object inline.
type Template struct {
	// File is the path as written; "" for an inline object.
	File string `json:"-"`
	// Inline is the object as written inline; nil for a file.
	Inline map[string]any `json:"-"`

	// Loaded is what Load makes of it: nil until then, and when it does
	// not load.
	Loaded *LoadedTemplate `json:"-"`

	// raw is the inline object's JSON as the scenario gives it: its
	// numbers as written.
	raw []byte
	// failed says Load reported why the template did not load.
	failed bool
}

// LoadedTemplate is a template decoded strictly into the Go type of its kind
// and cleaned of what a cluster fills in (status, uid, resourceVersion,
// generation, creationTimestamp, managedFields, owner references, kubectl's
// last-applied annotation; a Job's generated selector and the labels that
// name its uid). Streams that name the same file share its Object.
type LoadedTemplate struct {
	// Object is *batchv1.Job, *kftov1.PyTorchJob, *rayv1.RayJob,
	// *rayv1.RayCluster or *kueue.Workload (v1beta2: one written in v1beta1
	// is converted with Kueue's conversion), with TypeMeta cleared; or an
	// *unstructured.Unstructured, which keeps its apiVersion and kind, for
	// Notebook and InferenceService, whose Go types kueue-sim does not
	// import. Its name and namespace are as written (possibly empty). The
	// engine deep-copies it per arrival and never changes it.
	Object client.Object
	// Path is the file it was read from (for messages), or the scenario's.
	Path string
	// Line is the line of the object in Path: its first line in a file,
	// the line of workloads[i].template in the scenario.
	Line int

	// at locates the object's field paths in its file.
	at manifests.Object
	// field is the scenario's path of an inline template
	// (workloads[0].template); "" for a file.
	field string
}

// UnmarshalJSON reads a template given as a path or as an object.
func (t *Template) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch {
	case len(data) > 0 && data[0] == '"':
		return json.Unmarshal(data, &t.File)
	case len(data) > 0 && data[0] == '{':
		t.raw = append([]byte(nil), data...)
		return json.Unmarshal(data, &t.Inline)
	default:
		return fmt.Errorf("template is the path of a YAML file of one object, relative to the scenario, or the object inline")
	}
}

// MarshalJSON writes a template back as it was given.
func (t Template) MarshalJSON() ([]byte, error) {
	if t.Inline != nil {
		return json.Marshal(t.Inline)
	}
	return json.Marshal(t.File)
}

// object is the inline object as JSON decodes it, numbers as json.Number.
func (t *Template) object() (map[string]any, error) {
	raw := t.raw
	if raw == nil {
		var err error
		if raw, err = json.Marshal(t.Inline); err != nil {
			return nil, err
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}
