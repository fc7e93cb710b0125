package forecast

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"
)

// Try is one alternative to the job as written: another per-pod request
// of one resource, or another LocalQueue.
type Try struct {
	// Resource and Quantity: every container that asks for Resource asks
	// for Quantity instead (its limit too, where it sets one).
	Resource string
	Quantity resource.Quantity
	// Queue: the job goes to this LocalQueue instead.
	Queue string
}

// String is the alternative as the flag gives it: nvidia.com/gpu=4 or
// queue=other.
func (t Try) String() string {
	if t.Queue != "" {
		return "queue=" + t.Queue
	}
	return t.Resource + "=" + t.Quantity.String()
}

// ParseTries reads the values of --try: NAME=V1,V2,... where NAME is
// "queue" or a resource name; each value is one alternative.
func ParseTries(values []string) ([]Try, error) {
	var out []Try
	for _, v := range values {
		name, list, ok := strings.Cut(v, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.TrimSpace(list) == "" {
			return nil, fmt.Errorf("--try %q: give RESOURCE=Q1,Q2 (nvidia.com/gpu=4,2) or queue=NAME1,NAME2", v)
		}
		for _, one := range strings.Split(list, ",") {
			one = strings.TrimSpace(one)
			if name == "queue" {
				if one == "" {
					return nil, fmt.Errorf("--try %q: an empty queue name", v)
				}
				out = append(out, Try{Queue: one})
				continue
			}
			q, err := resource.ParseQuantity(one)
			if err != nil || q.Sign() < 0 {
				return nil, fmt.Errorf("--try %q: %q is not a quantity of %s (such as 4, 500m or 16Gi)", v, one, name)
			}
			out = append(out, Try{Resource: name, Quantity: q})
		}
	}
	return out, nil
}

// apply writes the job changed by t to path, and says how many
// containers a resource try changed: none leaves the job as written, and
// writes nothing.
func (t Try) apply(j *Job, path string) (int, error) {
	var obj map[string]any
	if err := yaml.Unmarshal(j.data, &obj); err != nil {
		return 0, fmt.Errorf("reading %s: %w", j.Where(), err)
	}
	changed := 1
	if t.Queue != "" {
		meta, _ := obj["metadata"].(map[string]any)
		if meta == nil {
			meta = map[string]any{}
			obj["metadata"] = meta
		}
		labels, _ := meta["labels"].(map[string]any)
		if labels == nil {
			labels = map[string]any{}
			meta["labels"] = labels
		}
		labels[QueueLabel] = t.Queue
	} else {
		var err error
		if changed, err = setRequests(obj, t.Resource, t.Quantity.String(), ""); err != nil {
			return 0, &InputError{Err: fmt.Errorf("%s: %w", j.Where(), err)}
		}
		if changed == 0 {
			return 0, nil
		}
	}
	out, err := yaml.Marshal(obj)
	if err != nil {
		return 0, err
	}
	return changed, os.WriteFile(path, out, 0o644)
}

// setRequests sets resource to q in every pod spec's containers under v
// (any map holding a containers list: a Job's template, each PyTorchJob
// replica, each Ray group, a Notebook, an InferenceService predictor) and
// counts the containers changed. A pod spec with two containers asking
// for resource is an error: a per-pod amount has no one place there.
func setRequests(v any, res, q, at string) (int, error) {
	n := 0
	switch x := v.(type) {
	case map[string]any:
		if cs, ok := x["containers"].([]any); ok {
			here := 0
			for _, c := range cs {
				cm, _ := c.(map[string]any)
				rs, _ := cm["resources"].(map[string]any)
				changed := false
				for _, kind := range []string{"requests", "limits"} {
					if m, ok := rs[kind].(map[string]any); ok {
						if _, ok := m[res]; ok {
							m[res] = q
							changed = true
						}
					}
				}
				if changed {
					here++
				}
			}
			if here > 1 {
				return 0, fmt.Errorf("the pod spec at %s has %d containers asking for %s: change the file instead, a per-pod amount has no one place there", strings.TrimPrefix(at, "."), here, res)
			}
			n += here
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if k == "containers" {
				continue
			}
			m, err := setRequests(x[k], res, q, at+"."+k)
			if err != nil {
				return 0, err
			}
			n += m
		}
	case []any:
		for i, sub := range x {
			m, err := setRequests(sub, res, q, fmt.Sprintf("%s[%d]", at, i))
			if err != nil {
				return 0, err
			}
			n += m
		}
	}
	return n, nil
}
