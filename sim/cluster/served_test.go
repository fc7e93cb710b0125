package cluster

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestStorageVersionOnlyStopsServingOtherKueueVersions(t *testing.T) {
	crd := func(name, group string) *apiextensionsv1.CustomResourceDefinition {
		return &apiextensionsv1.CustomResourceDefinition{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec: apiextensionsv1.CustomResourceDefinitionSpec{Group: group, Versions: []apiextensionsv1.CustomResourceDefinitionVersion{
				{Name: "v1beta1", Served: true}, {Name: "v1beta2", Served: true, Storage: true},
			}},
		}
	}
	served := func(crds []*apiextensionsv1.CustomResourceDefinition) map[string][]string {
		out := map[string][]string{}
		for _, c := range crds {
			for _, v := range c.Spec.Versions {
				if v.Served {
					out[c.Name] = append(out[c.Name], v.Name)
				}
			}
		}
		return out
	}
	in := []*apiextensionsv1.CustomResourceDefinition{crd("workloads.kueue.x-k8s.io", kueueGroup), crd("things.example.com", "example.com")}
	got := served(storageVersionOnly(in, kueueGroup))
	want := map[string][]string{"workloads.kueue.x-k8s.io": {"v1beta2"}, "things.example.com": {"v1beta1", "v1beta2"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("served versions (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string][]string{"workloads.kueue.x-k8s.io": {"v1beta1", "v1beta2"}, "things.example.com": {"v1beta1", "v1beta2"}}, served(in)); diff != "" {
		t.Errorf("the input was changed (-want +got):\n%s", diff)
	}
}
