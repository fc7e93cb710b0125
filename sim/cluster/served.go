package cluster

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// kueueGroup is the API group of Kueue's CRDs.
const kueueGroup = "kueue.x-k8s.io"

// storageVersionOnly returns crds with every version of group's CRDs but
// the storage version left unserved (copies; crds is not changed).
func storageVersionOnly(crds []*apiextensionsv1.CustomResourceDefinition, group string) []*apiextensionsv1.CustomResourceDefinition {
	out := make([]*apiextensionsv1.CustomResourceDefinition, 0, len(crds))
	for _, crd := range crds {
		if crd.Spec.Group != group {
			out = append(out, crd)
			continue
		}
		c := crd.DeepCopy()
		for i := range c.Spec.Versions {
			c.Spec.Versions[i].Served = c.Spec.Versions[i].Storage
		}
		out = append(out, c)
	}
	return out
}
