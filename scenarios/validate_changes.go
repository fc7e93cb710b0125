package scenarios

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// changes checks each change's time, that it does something, and the
// objects it deletes. The apply files are loadChanges' to read and report;
// whether a deleted object exists is known only at the change's time, so
// the run checks it.
func (v *validator) changes(p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, c := range v.s.Changes {
		cp := p.Index(i)
		errs = append(errs, simTime(cp.Child("at"), &c.At)...)
		if len(c.Apply) == 0 && len(c.Delete) == 0 {
			errs = append(errs, field.Required(cp, fmt.Sprintf(
				"the change at %s does nothing: give apply (files of objects to apply) or delete (objects to delete), or remove the change", c.At.Duration)))
		}
		for j, ref := range c.Delete {
			errs = append(errs, deleteRef(cp.Child("delete").Index(j), ref)...)
		}
	}
	return errs
}

// deleteRef checks an object a change deletes: a kind a change may
// delete, its name, and a namespace exactly for the namespaced kinds.
func deleteRef(p *field.Path, ref ObjectRef) field.ErrorList {
	var errs field.ErrorList
	kinds := sortedStrings(DeletableKinds)
	namespaced, known := DeletableKinds[ref.Kind]
	what := "object"
	switch {
	case ref.Kind == "":
		errs = append(errs, field.Required(p.Child("kind"), "give the kind of the object to delete: one of "+strings.Join(kinds, ", ")))
	case !known:
		errs = append(errs, notSupported(p.Child("kind"), ref.Kind, kinds))
	default:
		what = ref.Kind
	}
	if ref.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), fmt.Sprintf("name the %s to delete", what)))
	} else {
		errs = append(errs, dnsSubdomain(p.Child("name"), ref.Name)...)
	}
	np := p.Child("namespace")
	switch {
	case !known:
	case namespaced && ref.Namespace == "":
		errs = append(errs, field.Required(np, fmt.Sprintf(
			"a %s is namespaced: give the namespace it is in, e.g. {kind: %s, namespace: research, name: %s}", ref.Kind, ref.Kind, exampleName(ref.Name))))
	case namespaced:
		errs = append(errs, dnsLabel(np, ref.Namespace)...)
	case ref.Namespace != "":
		errs = append(errs, field.Forbidden(np, fmt.Sprintf("a %s is cluster-scoped and has no namespace: remove namespace", ref.Kind)))
	}
	return errs
}

// exampleName is name for an example, or a placeholder when it is unset.
func exampleName(name string) string {
	if name == "" {
		return "gpu"
	}
	return name
}
