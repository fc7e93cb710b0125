package cluster

import (
	"fmt"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// omitCRDs returns crds without those named (WithoutCRDs). A name that
// matches none of them is an error: it is a typo, or a CRD kueue-sim no
// longer embeds, and either way the caller meant something else.
func omitCRDs(crds []*apiextensionsv1.CustomResourceDefinition, names []string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	if len(names) == 0 {
		return crds, nil
	}
	have := make([]string, 0, len(crds))
	for _, c := range crds {
		have = append(have, c.Name)
	}
	for _, n := range names {
		if !slices.Contains(have, n) {
			slices.Sort(have)
			return nil, fmt.Errorf("leaving CRD %q out: no embedded CRD has that name (embedded: %s)", n, strings.Join(have, ", "))
		}
	}
	kept := make([]*apiextensionsv1.CustomResourceDefinition, 0, len(crds))
	for _, c := range crds {
		if !slices.Contains(names, c.Name) {
			kept = append(kept, c)
		}
	}
	return kept, nil
}
