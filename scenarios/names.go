package scenarios

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// names are the declared names of one kind of object, each with the path
// of its first declaration, so that a duplicate points at the original and
// a dangling reference at where to declare it.
type names struct {
	what    string // "ClusterQueue"
	where   string // "queues.clusterQueues"
	example string // a declaration to copy
	at      map[string]string
}

func newNames(what, where, example string) *names {
	return &names{what: what, where: where, example: example, at: map[string]string{}}
}

// Has tells whether name is declared.
func (n *names) Has(name string) bool {
	_, ok := n.at[name]
	return ok
}

// declare records name, declared at p, and reports it when it is empty,
// malformed (per check) or declared before.
func (n *names) declare(p *field.Path, name string, check func(*field.Path, string) field.ErrorList) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(p, fmt.Sprintf("give the %s a name: lowercase letters, digits and '-'", n.what))}
	}
	errs := check(p, name)
	if first, dup := n.at[name]; dup {
		return append(errs, withDetail(field.Duplicate(p, name), fmt.Sprintf(
			"%s also has this name: rename one", first)))
	}
	n.at[name] = strings.TrimSuffix(p.String(), ".name")
	return errs
}

// ref reports name, referred to at p, when it is not declared.
func (n *names) ref(p *field.Path, name string) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(p, fmt.Sprintf("name a %s declared under %s", n.what, n.where))}
	}
	if n.Has(name) {
		return nil
	}
	return field.ErrorList{notFound(p, name, n)}
}

func notFound(p *field.Path, name string, n *names) *field.Error {
	declared := make([]string, 0, len(n.at))
	for d := range n.at {
		declared = append(declared, d)
	}
	sort.Strings(declared)
	var detail string
	switch s := closest(name, declared); {
	case len(declared) == 0:
		detail = fmt.Sprintf("no %s is declared: add it under %s, e.g. %s", n.what, n.where, n.example)
	case s != "":
		detail = fmt.Sprintf("did you mean %q? (%ss are declared under %s)", s, n.what, n.where)
	default:
		if len(declared) > 10 {
			declared = append(declared[:10], "...")
		}
		detail = fmt.Sprintf("declare it under %s (declared: %s)", n.where, strings.Join(declared, ", "))
	}
	return withDetail(field.NotFound(p, name), detail)
}

// withDetail sets e's detail: the fix.
func withDetail(e *field.Error, detail string) *field.Error {
	e.Detail = detail
	return e
}

// notSupported is field.NotSupported with a suggestion for a near miss
// ("pytorchjob" for "PyTorchJob").
func notSupported(p *field.Path, val string, allowed []string) *field.Error {
	e := field.NotSupported(p, val, allowed)
	if s := closest(val, allowed); s != "" {
		e.Detail = fmt.Sprintf("did you mean %q? (%s)", s, e.Detail)
	}
	return e
}

// invalid is an error whose message says it all: no value is printed.
func invalid(p *field.Path, detail string) *field.Error {
	return &field.Error{Type: field.ErrorTypeInvalid, Field: p.String(), BadValue: field.OmitValueType{}, Detail: detail}
}

func dnsSubdomain(p *field.Path, name string) field.ErrorList {
	if len(validation.IsDNS1123Subdomain(name)) == 0 {
		return nil
	}
	return field.ErrorList{field.Invalid(p, name, "must be lowercase letters, digits, '-' and '.', starting and ending with a letter or digit, e.g. a100-80gb")}
}

func dnsLabel(p *field.Path, name string) field.ErrorList {
	if len(validation.IsDNS1123Label(name)) == 0 {
		return nil
	}
	return field.ErrorList{field.Invalid(p, name, "must be lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63 characters, e.g. team-a")}
}

// labelValueName checks the name of an object that workloads name in a
// label (LocalQueues, priority classes): an object name that is also a label
// value, so at most 63 characters.
func labelValueName(p *field.Path, name string) field.ErrorList {
	if errs := dnsSubdomain(p, name); len(errs) > 0 {
		return errs
	}
	if len(name) > 63 {
		return field.ErrorList{withDetail(field.TooLong(p, name, 63), "at most 63 characters: workloads name it in a label")}
	}
	return nil
}

func streamName(p *field.Path, name string) field.ErrorList {
	if errs := dnsLabel(p, name); len(errs) > 0 {
		return errs
	}
	if len(name) > MaxStreamName {
		return field.ErrorList{withDetail(field.TooLong(p, name, MaxStreamName), fmt.Sprintf(
			"at most %d characters: workload and pod names add an index and a role to it", MaxStreamName))}
	}
	return nil
}
