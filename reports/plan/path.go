package plan

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// Path addresses one field of a scenario file. It is written as the
// field names of the YAML file joined by dots; [x] after a list field
// picks the element whose name is x (or, for a number, the element at that
// position from 0), and after a map field the entry with key x:
//
//	cluster.nodePools[a100].count
//	queues.clusterQueues[team-a].resourceGroups[0].flavors[a100].resources[nvidia.com/gpu].nominal
//	workloads[train].count
//	queues.clusterQueues[team-c].fairSharingWeight
//	cluster.kueue.fairSharing.preemptionStrategies
type Path struct {
	Raw   string
	steps []step
	// leaf is the type of the field the path ends at; nil below a free-form
	// field (cluster.kueue), whose values are YAML.
	leaf reflect.Type
}

// step is one field name with its selectors.
type step struct {
	field     string
	selectors []string
	// list: the field is a list in the schema (its elements must exist).
	list bool
}

func (p Path) String() string { return p.Raw }

var scenarioType = reflect.TypeOf(scenarios.Scenario{})

// ParsePath parses a path and checks it against the scenario schema.
func ParsePath(raw string) (Path, error) {
	p := Path{Raw: raw}
	if raw == "" {
		return p, fmt.Errorf("empty path: name a scenario field, e.g. cluster.nodePools[a100].count")
	}
	rest := raw
	for rest != "" {
		var s step
		end := strings.IndexAny(rest, ".[")
		if end < 0 {
			end = len(rest)
		}
		s.field, rest = rest[:end], rest[end:]
		if !isIdent(s.field) {
			return p, fmt.Errorf("path %s: %q is not a field name (letters and digits, starting with a letter)", raw, s.field)
		}
		for strings.HasPrefix(rest, "[") {
			close := strings.Index(rest, "]")
			if close < 0 {
				return p, fmt.Errorf("path %s: [ without ]", raw)
			}
			sel := rest[1:close]
			if sel == "" {
				return p, fmt.Errorf("path %s: empty []: put a name, an index or a key inside", raw)
			}
			s.selectors, rest = append(s.selectors, sel), rest[close+1:]
		}
		p.steps = append(p.steps, s)
		if rest != "" {
			if rest[0] != '.' || len(rest) == 1 {
				return p, fmt.Errorf("path %s: expected . and a field name after %s", raw, raw[:len(raw)-len(rest)])
			}
			rest = rest[1:]
		}
	}
	leaf, err := p.check()
	p.leaf = leaf
	return p, err
}

func isIdent(s string) bool {
	for i, r := range s {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return s != ""
}

var (
	quantityType = reflect.TypeOf(resource.Quantity{})
	durationType = reflect.TypeOf(metav1.Duration{})
)

// check walks the schema along the path and returns the leaf's type.
func (p Path) check() (reflect.Type, error) {
	t := scenarioType
	where := "the scenario"
	for i, s := range p.steps {
		t = deref(t)
		if t.Kind() == reflect.Interface || t.Kind() == reflect.Map && t.Elem().Kind() == reflect.Interface {
			return nil, nil // free-form below here: cluster.kueue
		}
		if t.Kind() != reflect.Struct || t == quantityType || t == durationType {
			return nil, fmt.Errorf("path %s: %s is a value, not an object: it has no field %s", p.Raw, where, s.field)
		}
		f, ok := fieldByJSON(t, s.field)
		if !ok {
			return nil, fmt.Errorf("path %s: %s has no field %q; its fields: %s", p.Raw, where, s.field, strings.Join(jsonFields(t), ", "))
		}
		t = f.Type
		p.steps[i].list = deref(t).Kind() == reflect.Slice
		where = s.field
		for _, sel := range s.selectors {
			t = deref(t)
			switch t.Kind() {
			case reflect.Slice:
				if _, hasName := fieldByJSON(deref(t.Elem()), "name"); !hasName {
					if _, err := strconv.Atoi(sel); err != nil {
						return nil, fmt.Errorf("path %s: the elements of %s have no name: select one by its position, e.g. %s[0]", p.Raw, where, s.field)
					}
				}
			case reflect.Map:
			default:
				return nil, fmt.Errorf("path %s: %s is neither a list nor a map: drop [%s]", p.Raw, where, sel)
			}
			t = t.Elem()
			where += "[" + sel + "]"
		}
	}
	t = deref(t)
	switch {
	case t.Kind() == reflect.Interface || t.Kind() == reflect.Map && t.Elem().Kind() == reflect.Interface:
		return nil, nil
	case t == quantityType || t == durationType:
	case t.Kind() == reflect.Struct:
		return nil, fmt.Errorf("path %s ends at an object: name one of its fields: %s", p.Raw, strings.Join(jsonFields(t), ", "))
	case t.Kind() == reflect.Slice || t.Kind() == reflect.Map:
		return nil, fmt.Errorf("path %s ends at a list or map: select an element with [name], [index] or [key] and a field", p.Raw)
	}
	return t, nil
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

func fieldByJSON(t reflect.Type, name string) (reflect.StructField, bool) {
	if t.Kind() != reflect.Struct {
		return reflect.StructField{}, false
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if tagName(f) == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func jsonFields(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		if n := tagName(t.Field(i)); n != "" && n != "-" {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func tagName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}

// Value parses a value for the path's field: a number, duration or
// quantity must parse as one; below a free-form field, any YAML value.
func (p Path) Value(raw string) (any, error) {
	bad := func(what string, err error) (any, error) {
		return nil, fmt.Errorf("%s=%s: %s: %w", p.Raw, raw, what, err)
	}
	if p.leaf == nil {
		var v any
		if err := yaml.Unmarshal([]byte(raw), &v); err != nil {
			return bad("not a YAML value", err)
		}
		return v, nil
	}
	switch {
	case p.leaf == quantityType:
		q, err := resource.ParseQuantity(raw)
		if err != nil {
			return bad("not a quantity such as 8, 500m or 64Gi", err)
		}
		return q.String(), nil
	case p.leaf == durationType:
		d, err := time.ParseDuration(raw)
		if err != nil {
			return bad("not a duration such as 90s, 30m or 2h", err)
		}
		return d.String(), nil
	}
	switch p.leaf.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(raw, 10, p.leaf.Bits())
		if err != nil {
			return bad("not a whole number", err)
		}
		return n, nil
	case reflect.Float32, reflect.Float64:
		f, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			return bad("not a number", err)
		}
		return f, nil
	case reflect.Bool:
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return bad("not true or false", err)
		}
		return b, nil
	case reflect.String:
		return raw, nil
	}
	return nil, fmt.Errorf("%s: fields of type %s cannot be varied", p.Raw, p.leaf)
}

// Set puts v at the path in doc, a scenario decoded from YAML. Objects
// and map entries on the way are created; list elements must exist.
func (p Path) Set(doc map[string]any, v any) error {
	var cur any = doc
	where := ""
	for i, s := range p.steps {
		last := i == len(p.steps)-1 && len(s.selectors) == 0
		m, ok := cur.(map[string]any)
		if !ok {
			return fmt.Errorf("setting %s: %s is not an object in the scenario file", p.Raw, orTop(where))
		}
		where = join(where, s.field)
		if last {
			m[s.field] = v
			return nil
		}
		next, ok := m[s.field]
		if !ok || next == nil {
			if len(s.selectors) > 0 && s.list {
				return fmt.Errorf("setting %s: the scenario has no %s", p.Raw, where)
			}
			next = map[string]any{}
			m[s.field] = next
		}
		cur = next
		for j, sel := range s.selectors {
			lastSel := i == len(p.steps)-1 && j == len(s.selectors)-1
			var err error
			cur, err = selectIn(cur, sel, where, lastSel, v)
			if err != nil {
				return fmt.Errorf("setting %s: %w", p.Raw, err)
			}
			where += "[" + sel + "]"
			if lastSel {
				return nil
			}
		}
	}
	return nil
}

// selectIn picks sel in a list (by name or position) or a map (by key);
// when set, it stores v there instead.
func selectIn(cur any, sel, where string, set bool, v any) (any, error) {
	switch c := cur.(type) {
	case []any:
		var names []string
		for i, e := range c {
			name := ""
			if em, ok := e.(map[string]any); ok {
				name, _ = em["name"].(string)
			}
			if name == sel || name == "" && strconv.Itoa(i) == sel {
				if set {
					c[i] = v
				}
				return c[i], nil
			}
			names = append(names, name)
		}
		if n, err := strconv.Atoi(sel); err == nil && n >= 0 && n < len(c) {
			if set {
				c[n] = v
			}
			return c[n], nil
		}
		if len(names) > 0 && names[0] != "" {
			return nil, fmt.Errorf("%s has no element named %q (names: %s)", where, sel, strings.Join(names, ", "))
		}
		return nil, fmt.Errorf("%s has no element %s (it has %d)", where, sel, len(c))
	case map[string]any:
		if set {
			c[sel] = v
			return v, nil
		}
		next, ok := c[sel]
		if !ok || next == nil {
			next = map[string]any{}
			c[sel] = next
		}
		return next, nil
	}
	return nil, fmt.Errorf("%s is not a list or map in the scenario file", where)
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

func orTop(s string) string {
	if s == "" {
		return "the top level"
	}
	return s
}
