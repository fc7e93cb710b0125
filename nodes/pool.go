package nodes

import (
	"context"
	"errors"
	"fmt"
	"os"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// Label keys kueue-sim puts on every node it makes.
const (
	PoolLabel = "kueue-sim.io/pool"
	// GPUProductLabel is the label NVIDIA's GPU feature discovery sets.
	GPUProductLabel = "nvidia.com/gpu.product"
	// GPUResource is the extended resource of the NVIDIA device plugin.
	GPUResource corev1.ResourceName = "nvidia.com/gpu"
)

// Pool is a set of identical nodes.
type Pool struct {
	// Name prefixes the node names: <name>-0, <name>-1, ...
	Name string `json:"name"`
	// Count is the number of nodes.
	Count int `json:"count"`
	// Labels are added to every node.
	Labels map[string]string `json:"labels,omitempty"`
	// Allocatable is each node's allocatable (and capacity) resources; pods
	// defaults to 110.
	Allocatable corev1.ResourceList `json:"allocatable"`
	// Taints are put on every node.
	Taints []corev1.Taint `json:"taints,omitempty"`
}

// Spec is the file format of `sim up --nodes`.
type Spec struct {
	Pools []Pool `json:"pools"`
}

// MaxNodes bounds the nodes one spec may ask for.
const MaxNodes = 10000

// LoadSpec reads a node-pool file strictly and validates it.
func LoadSpec(path string) (Spec, error) {
	var s Spec
	data, err := os.ReadFile(path)
	if err != nil {
		return s, fmt.Errorf("reading node pools: %w", err)
	}
	if err := decodeStrict(data, &s); err != nil {
		return s, fmt.Errorf("%s: %w (see `sim up --help` for the format)", path, err)
	}
	if errs := s.Validate(field.NewPath("pools")); len(errs) > 0 {
		return s, fmt.Errorf("%s: %w", path, errs.ToAggregate())
	}
	return s, nil
}

// Validate checks every pool at once.
func (s Spec) Validate(p *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	total := 0
	for i, pool := range s.Pools {
		errs = append(errs, pool.Validate(p.Index(i))...)
		if names[pool.Name] {
			errs = append(errs, field.Duplicate(p.Index(i).Child("name"), pool.Name))
		}
		names[pool.Name] = true
		total += pool.Count
	}
	if total > MaxNodes {
		errs = append(errs, field.Invalid(p, total, fmt.Sprintf("at most %d nodes in all", MaxNodes)))
	}
	return errs
}

// Validate checks one pool.
func (pool Pool) Validate(p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range validation.IsDNS1123Subdomain(pool.Name) {
		errs = append(errs, field.Invalid(p.Child("name"), pool.Name, msg))
	}
	if pool.Count < 0 || pool.Count > MaxNodes {
		errs = append(errs, field.Invalid(p.Child("count"), pool.Count, fmt.Sprintf("must be between 0 and %d", MaxNodes)))
	}
	for k, v := range pool.Labels {
		for _, msg := range validation.IsQualifiedName(k) {
			errs = append(errs, field.Invalid(p.Child("labels").Key(k), k, msg))
		}
		for _, msg := range validation.IsValidLabelValue(v) {
			errs = append(errs, field.Invalid(p.Child("labels").Key(k), v, msg))
		}
	}
	if len(pool.Allocatable) == 0 {
		errs = append(errs, field.Required(p.Child("allocatable"), "give at least cpu and memory, e.g. {cpu: \"32\", memory: 256Gi}"))
	}
	for name, q := range pool.Allocatable {
		if q.Sign() < 0 {
			errs = append(errs, field.Invalid(p.Child("allocatable").Key(string(name)), q.String(), "must not be negative"))
		}
	}
	for i, t := range pool.Taints {
		switch t.Effect {
		case corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule, corev1.TaintEffectNoExecute:
		default:
			errs = append(errs, field.NotSupported(p.Child("taints").Index(i).Child("effect"), t.Effect,
				[]string{string(corev1.TaintEffectNoSchedule), string(corev1.TaintEffectPreferNoSchedule), string(corev1.TaintEffectNoExecute)}))
		}
	}
	return errs
}

// Nodes returns the pool's Node objects, status included.
func (pool Pool) Nodes() []*corev1.Node {
	alloc := pool.Allocatable.DeepCopy()
	if _, ok := alloc[corev1.ResourcePods]; !ok {
		alloc[corev1.ResourcePods] = resource.MustParse("110")
	}
	out := make([]*corev1.Node, 0, pool.Count)
	for i := 0; i < pool.Count; i++ {
		name := fmt.Sprintf("%s-%d", pool.Name, i)
		labels := map[string]string{
			corev1.LabelHostname:   name,
			corev1.LabelOSStable:   "linux",
			corev1.LabelArchStable: "amd64",
			PoolLabel:              pool.Name,
		}
		for k, v := range pool.Labels {
			labels[k] = v
		}
		out = append(out, &corev1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
			Spec:       corev1.NodeSpec{Taints: append([]corev1.Taint(nil), pool.Taints...)},
			Status: corev1.NodeStatus{
				Capacity:    alloc.DeepCopy(),
				Allocatable: alloc.DeepCopy(),
				Phase:       corev1.NodeRunning,
				Conditions: []corev1.NodeCondition{{
					Type:    corev1.NodeReady,
					Status:  corev1.ConditionTrue,
					Reason:  "KubeletReady",
					Message: "kueue-sim fake kubelet is posting ready status",
				}},
				NodeInfo: corev1.NodeSystemInfo{
					KubeletVersion:  "kueue-sim",
					OperatingSystem: "linux",
					Architecture:    "amd64",
				},
			},
		})
	}
	return out
}

// Create makes every node of the pools, Ready, skipping nodes that exist.
func Create(ctx context.Context, c client.Client, pools ...Pool) error {
	for _, pool := range pools {
		for _, n := range pool.Nodes() {
			status := n.Status
			if err := c.Create(ctx, n); err != nil {
				if apierrors.IsAlreadyExists(err) {
					continue
				}
				return fmt.Errorf("creating node %s: %w", n.Name, err)
			}
			n.Status = status
			if err := c.Status().Update(ctx, n); err != nil {
				return fmt.Errorf("marking node %s Ready: %w", n.Name, err)
			}
		}
	}
	return nil
}

// decodeStrict decodes YAML into v, reporting unknown and duplicate fields
// with their paths (pools[0].gpus).
func decodeStrict(data []byte, v any) error {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return err
	}
	strict, err := sigsjson.UnmarshalStrict(js, v)
	if err != nil {
		return err
	}
	if len(strict) > 0 {
		return errors.Join(strict...)
	}
	return nil
}
