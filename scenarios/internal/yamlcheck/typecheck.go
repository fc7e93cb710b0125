package yamlcheck

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Options tune Check to the input it checks.
type Options struct {
	// MaxItems bounds a list of elem; 0 means MaxListItems.
	MaxItems func(elem reflect.Type) int
	// Doc names where the fields of the mapping at path are documented.
	Doc func(path string) string
}

// Check compares a decoded JSON tree (numbers as json.Number) with the
// Go type it is meant for and reports every unknown field and every value of
// the wrong type, with its full path: the JSON decoder stops at the first and
// names it without list indices. Values of types with their own decoder
// (durations, quantities, times) are decoded here, one at a time.
func Check(p *field.Path, v any, t reflect.Type, o Options) field.ErrorList {
	if v == nil {
		return nil // null leaves the field unset, as in JSON
	}
	if t == quantityType {
		return checkQuantity(p, v)
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) {
		return checkUnmarshaler(p, v, t)
	}
	switch t.Kind() {
	case reflect.Pointer:
		return Check(p, v, t.Elem(), o)
	case reflect.Interface:
		return nil
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return field.ErrorList{WrongType(p, v, "must be a mapping of fields (name: value)")}
		}
		return checkStruct(p, obj, t, o)
	case reflect.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			return field.ErrorList{WrongType(p, v, "must be a mapping (key: value)")}
		}
		var errs field.ErrorList
		for _, k := range SortedKeys(obj) {
			errs = append(errs, Check(p.Key(k), obj[k], t.Elem(), o)...)
		}
		return errs
	case reflect.Slice:
		list, ok := v.([]any)
		if !ok {
			return field.ErrorList{WrongType(p, v, "must be a list (- item, or [a, b])")}
		}
		if limit := o.maxItems(t.Elem()); len(list) > limit {
			return field.ErrorList{field.TooMany(p, len(list), limit)}
		}
		var errs field.ErrorList
		for i, e := range list {
			errs = append(errs, Check(p.Index(i), e, t.Elem(), o)...)
		}
		return errs
	case reflect.String:
		if _, ok := v.(string); !ok {
			return field.ErrorList{WrongType(p, v, "must be a string: put the value in quotes")}
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return field.ErrorList{WrongType(p, v, "must be true or false")}
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := v.(json.Number)
		if !ok {
			return field.ErrorList{WrongType(p, v, "must be a whole number, without quotes")}
		}
		if _, err := strconv.ParseInt(string(n), 10, t.Bits()); err != nil {
			return field.ErrorList{WrongType(p, v, fmt.Sprintf("must be a whole number between %d and %d", int64(-1)<<(t.Bits()-1), int64(1)<<(t.Bits()-1)-1))}
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := v.(json.Number)
		if !ok {
			return field.ErrorList{WrongType(p, v, "must be a whole number, without quotes")}
		}
		if _, err := strconv.ParseUint(string(n), 10, t.Bits()); err != nil {
			return field.ErrorList{WrongType(p, v, "must be a whole number, 0 or more")}
		}
	case reflect.Float32, reflect.Float64:
		n, ok := v.(json.Number)
		if !ok {
			return field.ErrorList{WrongType(p, v, "must be a number, without quotes")}
		}
		if f, err := strconv.ParseFloat(string(n), t.Bits()); err != nil || math.IsInf(f, 0) {
			return field.ErrorList{WrongType(p, v, "must be a number")}
		}
	}
	return nil
}

// MaxListItems bounds every list unless Options.MaxItems says otherwise.
const MaxListItems = 10_000

func (o Options) maxItems(elem reflect.Type) int {
	if o.MaxItems != nil {
		if n := o.MaxItems(elem); n > 0 {
			return n
		}
	}
	return MaxListItems
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	quantityType    = reflect.TypeFor[resource.Quantity]()
	// DurationType is metav1.Duration's type.
	DurationType = reflect.TypeFor[metav1.Duration]()
	timeType     = reflect.TypeFor[metav1.Time]()
)

func checkStruct(p *field.Path, obj map[string]any, t reflect.Type, o Options) field.ErrorList {
	fields := jsonFields(t)
	var errs field.ErrorList
	for _, k := range SortedKeys(obj) {
		ft, ok := fields[k]
		if !ok {
			errs = append(errs, unknownField(p.Child(k), k, fields, o))
			continue
		}
		errs = append(errs, Check(p.Child(k), obj[k], ft, o)...)
	}
	return errs
}

// jsonFields maps the JSON names of t's fields, inlined ones included, to
// their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for n, t := range jsonFields(ft) {
					if _, shadowed := out[n]; !shadowed {
						out[n] = t
					}
				}
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

func unknownField(p *field.Path, name string, known map[string]reflect.Type, o Options) *field.Error {
	names := make([]string, 0, len(known))
	for n := range known {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return &field.Error{Type: field.ErrorTypeNotSupported, Field: p.String(), BadValue: field.OmitValueType{},
			Detail: "unknown field: this mapping takes no fields, write {}"}
	}
	msg := "unknown field: remove it or check its spelling"
	if s := Closest(name, names); s != "" {
		msg = fmt.Sprintf("unknown field: did you mean %q?", s)
	}
	msg += " (fields here: " + strings.Join(names, ", ")
	if o.Doc != nil {
		msg += "; see " + o.Doc(p.String())
	}
	msg += ")"
	return &field.Error{Type: field.ErrorTypeNotSupported, Field: p.String(), BadValue: field.OmitValueType{}, Detail: msg}
}

// Closest returns the name nearest to s: the same letters in another case,
// or one or two edits away (one for names of up to five letters), or "".
func Closest(s string, names []string) string {
	limit := min(2, max(1, len(s)/3)) + 1
	best, bestDist := "", limit
	for _, n := range names {
		if strings.EqualFold(n, s) {
			return n
		}
		if d := editDistance(strings.ToLower(s), strings.ToLower(n), bestDist); d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, or limit when it is
// limit or more.
func editDistance(a, b string, limit int) int {
	if len(a) > 64 || len(b) > 64 || abs(len(a)-len(b)) >= limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// checkUnmarshaler decodes v with t's own decoder (metav1.Duration,
// metav1.Time, ...).
func checkUnmarshaler(p *field.Path, v any, t reflect.Type) field.ErrorList {
	data, err := json.Marshal(v)
	if err != nil {
		return field.ErrorList{WrongType(p, v, err.Error())}
	}
	target := reflect.New(t).Interface()
	err = target.(json.Unmarshaler).UnmarshalJSON(data)
	if err == nil {
		return nil
	}
	hint := strings.TrimPrefix(err.Error(), "time: ")
	_, isString := v.(string)
	switch t {
	case DurationType:
		hint = "must be a duration such as 90s, 30m or 1h30m (units h, m, s, ms)"
		if isString {
			hint += ": " + strings.TrimPrefix(err.Error(), "time: ")
		}
	case timeType:
		hint = "must be a time such as \"2025-01-31T12:00:00Z\" (RFC 3339)"
	}
	return field.ErrorList{WrongType(p, v, hint)}
}

// quantityText is the grammar of a Kubernetes quantity, with the number and
// exponent kept short: resource.ParseQuantity takes minutes on exponents
// such as 1e-999999999.
var quantityText = regexp.MustCompile(`^[+-]?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})(?:[eE][+-]?[0-9]{1,2}|Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$`)

// checkQuantity checks a resource quantity (cpu: "8", memory: 64Gi,
// nvidia.com/gpu: 4).
func checkQuantity(p *field.Path, v any) field.ErrorList {
	var s string
	switch v := v.(type) {
	case string:
		s = v
	case json.Number:
		s = string(v)
	default:
		return field.ErrorList{WrongType(p, v, "must be a quantity such as 8, 500m, 64Gi or 1.5")}
	}
	if !quantityText.MatchString(s) {
		return field.ErrorList{WrongType(p, v, "must be a quantity such as 8, 500m, 64Gi or 1.5 (suffixes m, k, M, G, T, Ki, Mi, Gi, Ti; at most 30 digits and exponents e-99 to e99)")}
	}
	if _, err := resource.ParseQuantity(s); err != nil {
		return field.ErrorList{WrongType(p, v, "must be a quantity such as 8, 500m, 64Gi or 1.5: "+err.Error())}
	}
	return nil
}

// WrongType is an error on a value of the wrong type; lists and mappings are
// described rather than printed.
func WrongType(p *field.Path, v any, detail string) *field.Error {
	e := &field.Error{Type: field.ErrorTypeTypeInvalid, Field: p.String(), Detail: detail}
	switch v := v.(type) {
	case string:
		if len(v) > 80 {
			v = v[:77] + "..."
		}
		e.BadValue = v
	case json.Number:
		e.BadValue = v
		if len(v) > 40 {
			e.BadValue = json.Number(v[:37] + "...")
		}
	case bool:
		e.BadValue = v
	case []any:
		e.BadValue = field.OmitValueType{}
		e.Detail = detail + ", not a list"
	case map[string]any:
		e.BadValue = field.OmitValueType{}
		e.Detail = detail + ", not a mapping"
	default:
		e.BadValue = field.OmitValueType{}
	}
	return e
}

// SortedKeys are m's keys in order.
func SortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
