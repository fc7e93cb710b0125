package compare

import (
	"errors"
	"fmt"
	"os"
	"sort"

	"k8s.io/apimachinery/pkg/util/validation/field"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/kueue-sim/kueue-sim/reports"
)

// APIVersion and Kind a thresholds file declares.
const (
	APIVersion = "kueue-sim/v1alpha1"
	Kind       = "Thresholds"
)

// Thresholds are the rules of a comparison.
type Thresholds struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// BuiltinRules false drops the built-in rules (BuiltinRules) under the
	// file's own; default true.
	BuiltinRules *bool  `json:"builtinRules,omitempty"`
	Rules        []Rule `json:"rules,omitempty"`
}

// Rule bounds the metrics it matches. A metric is judged by the first
// matching rule of the file, else the first matching built-in rule.
type Rule struct {
	// Metric is a metric name (see reports.MetricKinds).
	Metric string `json:"metric"`
	// Labels narrow the rule to metrics carrying all of them.
	Labels map[string]string `json:"labels,omitempty"`
	// MaxRegression is the largest allowed change in the worse direction,
	// as a fraction of the baseline's value (0.1 = 10 %). For metrics
	// where neither direction is better, any change counts.
	MaxRegression *float64 `json:"maxRegression,omitempty"`
	// Slack is a change, in the metric's unit, that always passes (e.g. 60
	// seconds of queue wait when the baseline waited 0).
	Slack *float64 `json:"slack,omitempty"`
	// Min and Max bound the new value.
	Min *float64 `json:"min,omitempty"`
	Max *float64 `json:"max,omitempty"`
	// Ignore leaves the metric out.
	Ignore bool `json:"ignore,omitempty"`
	// Why is the rule's rationale, shown with a breach.
	Why string `json:"why,omitempty"`
}

func ptr(f float64) *float64 { return &f }

// BuiltinRules apply to metrics no rule of the file matches. Metrics
// without one (used_hours, admissions, borrowed_hours,
// preemptions_by_reason) are shown when they move but never fail.
var BuiltinRules = []Rule{
	{Metric: "expectations_failed", MaxRegression: ptr(0), Why: "an expectation that passed must keep passing"},
	{Metric: "utilization", MaxRegression: ptr(0.05), Why: "paid-for capacity should not sit idle: at most 5% less use"},
	{Metric: "queue_wait_seconds", MaxRegression: ptr(0.10), Slack: ptr(60), Why: "at most 10% (and more than a minute) longer waits"},
	{Metric: "pending_at_end", MaxRegression: ptr(0), Why: "no more workloads left waiting"},
	{Metric: "finished", MaxRegression: ptr(0), Why: "no fewer workloads completed"},
	{Metric: "failed", MaxRegression: ptr(0), Why: "no more failed workloads"},
	{Metric: "preemptions", MaxRegression: ptr(0.10), Why: "at most 10% more preemptions (lost work)"},
	{Metric: "evictions", MaxRegression: ptr(0), Why: "no more evictions"},
	{Metric: "refusals", MaxRegression: ptr(0), Why: "webhook policy changes must be deliberate: any change in refusals"},
	{Metric: "off_flavor_pods", MaxRegression: ptr(0), Why: "pods must stay on their flavor's nodes"},
	{Metric: "fair_share_gap", MaxRegression: ptr(0.10), Slack: ptr(50), Why: "a member with waiting work may trail the others' weighted shares by at most 10% (or 50, a twentieth of the lendable quota) more"},
}

// LoadThresholds reads a thresholds file strictly (unknown or duplicate
// fields are errors) and validates it, naming every problem's field.
func LoadThresholds(path string) (*Thresholds, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading thresholds: %w", err)
	}
	var t Thresholds
	if err := decodeStrict(data, &t); err != nil {
		return nil, fmt.Errorf("reading thresholds %s: %w", path, err)
	}
	if errs := t.Validate(); len(errs) > 0 {
		return nil, fmt.Errorf("thresholds %s are invalid: %w", path, errs.ToAggregate())
	}
	return &t, nil
}

// decodeStrict decodes YAML into v, naming unknown and duplicate fields
// with their paths (rules[0].maxRegresion).
func decodeStrict(data []byte, v any) error {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return err
	}
	strict, err := sigsjson.UnmarshalStrict(js, v)
	if err != nil {
		return err
	}
	return errors.Join(strict...)
}

// Validate checks every rule at once.
func (t *Thresholds) Validate() field.ErrorList {
	var errs field.ErrorList
	if t.APIVersion != APIVersion {
		errs = append(errs, field.NotSupported(field.NewPath("apiVersion"), t.APIVersion, []string{APIVersion}))
	}
	if t.Kind != Kind {
		errs = append(errs, field.NotSupported(field.NewPath("kind"), t.Kind, []string{Kind}))
	}
	for i, r := range t.Rules {
		errs = append(errs, r.validate(field.NewPath("rules").Index(i))...)
	}
	return errs
}

func (r Rule) validate(p *field.Path) field.ErrorList {
	var errs field.ErrorList
	kind, ok := reports.Kind(r.Metric)
	if !ok {
		var names []string
		for _, k := range reports.MetricKinds {
			names = append(names, k.Name)
		}
		errs = append(errs, field.NotSupported(p.Child("metric"), r.Metric, names))
	}
	if ok {
		for _, l := range sortedLabels(r.Labels) {
			if !contains(kind.Labels, l) {
				if len(kind.Labels) == 0 {
					errs = append(errs, field.Invalid(p.Child("labels").Key(l), r.Labels[l], fmt.Sprintf("metric %s has no labels", r.Metric)))
				} else {
					errs = append(errs, field.NotSupported(p.Child("labels").Key(l), l, kind.Labels))
				}
			}
		}
	}
	if r.MaxRegression != nil && (*r.MaxRegression < 0 || *r.MaxRegression > 100) {
		errs = append(errs, field.Invalid(p.Child("maxRegression"), *r.MaxRegression, "must be a fraction of the baseline between 0 and 100 (0.1 = 10%)"))
	}
	if r.Slack != nil && *r.Slack < 0 {
		errs = append(errs, field.Invalid(p.Child("slack"), *r.Slack, "must be 0 or more, in the metric's unit"))
	}
	if r.Min != nil && r.Max != nil && *r.Min > *r.Max {
		errs = append(errs, field.Invalid(p.Child("min"), *r.Min, fmt.Sprintf("must not exceed max (%g)", *r.Max)))
	}
	if !r.Ignore && r.MaxRegression == nil && r.Slack == nil && r.Min == nil && r.Max == nil {
		errs = append(errs, field.Required(p, "set maxRegression, slack, min, max or ignore: a rule with none checks nothing"))
	}
	if r.Ignore && (r.MaxRegression != nil || r.Slack != nil || r.Min != nil || r.Max != nil) {
		errs = append(errs, field.Invalid(p.Child("ignore"), true, "an ignored metric has no limits: drop maxRegression, slack, min and max, or ignore"))
	}
	return errs
}

// matches tells whether the rule applies to m.
func (r Rule) matches(m reports.Metric) bool {
	if r.Metric != m.Name {
		return false
	}
	for k, v := range r.Labels {
		if m.Labels[k] != v {
			return false
		}
	}
	return true
}

// ruleFor is the rule judging m, or nil.
func (t *Thresholds) ruleFor(m reports.Metric) *Rule {
	rules := BuiltinRules
	if t != nil {
		for i := range t.Rules {
			if t.Rules[i].matches(m) {
				return &t.Rules[i]
			}
		}
		if t.BuiltinRules != nil && !*t.BuiltinRules {
			rules = nil
		}
	}
	for i := range rules {
		if rules[i].matches(m) {
			return &rules[i]
		}
	}
	return nil
}

func sortedLabels(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
