package scenarios

import (
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kueue-sim/kueue-sim/scenarios/internal/yamlcheck"
)

// MaxListItems bounds every list of a scenario but lists of times
// (arrival.at, durations), which MaxStreamCount bounds.
const MaxListItems = yamlcheck.MaxListItems

// checkOptions tune the type check to scenarios: lists of times are as long
// as a stream, unknown fields point at the scenario reference.
var checkOptions = yamlcheck.Options{
	MaxItems: func(elem reflect.Type) int {
		if elem == yamlcheck.DurationType {
			return MaxStreamCount
		}
		return MaxListItems
	},
	Doc: func(path string) string {
		if strings.HasPrefix(path, "cluster.kueue.") {
			return "Kueue's Configuration reference, config.kueue.x-k8s.io/v1beta2"
		}
		return "scenarios/README.md"
	},
}

// typeCheck reports every unknown field and every value of the wrong type
// of the decoded JSON tree v, meant for t (see yamlcheck.Check).
func typeCheck(p *field.Path, v any, t reflect.Type) field.ErrorList {
	return yamlcheck.Check(p, v, t, checkOptions)
}

// closest returns the name nearest to s, or "" (see yamlcheck.Closest).
func closest(s string, names []string) string { return yamlcheck.Closest(s, names) }
