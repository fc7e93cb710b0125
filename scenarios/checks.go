package scenarios

import (
	"fmt"
	"math"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The field checks the validator shares.

func labelMap(p *field.Path, m map[string]string) field.ErrorList {
	var errs field.ErrorList
	for _, k := range sortedStrings(m) {
		if len(validation.IsQualifiedName(k)) > 0 {
			errs = append(errs, field.Invalid(p.Key(k), k, "a label key is at most 63 letters, digits, '-', '_' and '.', optionally after a DNS prefix and '/', e.g. nvidia.com/gpu.product"))
		}
		if msgs := validation.IsValidLabelValue(m[k]); len(msgs) > 0 {
			errs = append(errs, field.Invalid(p.Key(k), m[k], "a label value is at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit, e.g. NVIDIA-A100-SXM4-80GB"))
		}
	}
	return errs
}

func nonNegative(p *field.Path, q *resource.Quantity) field.ErrorList {
	if q != nil && q.Sign() < 0 {
		return field.ErrorList{field.Invalid(p, q.String(), "must not be negative")}
	}
	return nil
}

func weight(p *field.Path, q *resource.Quantity) field.ErrorList {
	if q != nil && q.Sign() < 0 {
		return field.ErrorList{field.Invalid(p, q.String(), "must not be negative: 1 is the default, 0 means always last")}
	}
	return nil
}

func positiveDuration(p *field.Path, d *metav1.Duration) field.ErrorList {
	if d.Duration <= 0 {
		return field.ErrorList{field.Invalid(p, d.Duration.String(), "must be positive, e.g. 30m")}
	}
	return simTime(p, d)
}

func simTime(p *field.Path, d *metav1.Duration) field.ErrorList {
	if d.Duration < 0 || d.Duration.Seconds() > MaxSimulatedTime {
		return field.ErrorList{field.Invalid(p, d.Duration.String(), "must be between 0 and one year (8760h) of simulated time")}
	}
	return nil
}

func fraction(p *field.Path, f float64) field.ErrorList {
	if math.IsNaN(f) || f < 0 || f > 1 {
		hint := ""
		if f > 1 && f <= 100 {
			hint = fmt.Sprintf(" (%g%% is %g)", f, f/100)
		}
		return field.ErrorList{field.Invalid(p, f, "must be a fraction between 0 and 1, e.g. 0.1"+hint)}
	}
	return nil
}

func enum(p *field.Path, val string, allowed ...string) field.ErrorList {
	if val == "" {
		return nil
	}
	for _, a := range allowed {
		if val == a {
			return nil
		}
	}
	return field.ErrorList{notSupported(p, val, allowed)}
}

// resourceName checks the name of a requested or rationed resource: a
// standard one (cpu, memory, ephemeral-storage, hugepages-*) or an extended
// one with a domain (nvidia.com/gpu). quota allows pods, which Kueue can
// ration too.
func resourceName(p *field.Path, name corev1.ResourceName, quota bool) field.ErrorList {
	switch {
	case name == corev1.ResourceCPU || name == corev1.ResourceMemory || name == corev1.ResourceEphemeralStorage:
		return nil
	case quota && name == corev1.ResourcePods:
		return nil
	case strings.HasPrefix(string(name), corev1.ResourceHugePagesPrefix):
		return nil
	case strings.Contains(string(name), "/") && len(validation.IsQualifiedName(string(name))) == 0:
		return nil
	}
	return field.ErrorList{invalid(p, fmt.Sprintf("unknown resource %q: use cpu, memory, ephemeral-storage or an extended resource with its domain, such as nvidia.com/gpu", name))}
}

// extendedWhole checks that an extended resource (one with a domain, such
// as nvidia.com/gpu) is requested in whole units, as Kubernetes requires.
func extendedWhole(p *field.Path, name corev1.ResourceName, q resource.Quantity) field.ErrorList {
	if !strings.Contains(string(name), "/") || strings.HasPrefix(string(name), corev1.ResourceHugePagesPrefix) {
		return nil
	}
	if f := q.AsApproximateFloat64(); f != math.Trunc(f) {
		return field.ErrorList{field.Invalid(p, q.String(), "extended resources such as nvidia.com/gpu come in whole units: share a GPU with MIG and request its slice, e.g. nvidia.com/mig-1g.10gb: 1")}
	}
	return nil
}

func kindKnown(k WorkloadKind) bool {
	for _, known := range Kinds {
		if k == known {
			return true
		}
	}
	return false
}

func kindNames() []string {
	out := make([]string, len(Kinds))
	for i, k := range Kinds {
		out[i] = string(k)
	}
	return out
}

func sortedStrings[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
