package cluster

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestOmitCRDs(t *testing.T) {
	crd := func(name string) *apiextensionsv1.CustomResourceDefinition {
		return &apiextensionsv1.CustomResourceDefinition{ObjectMeta: metav1.ObjectMeta{Name: name}}
	}
	all := []*apiextensionsv1.CustomResourceDefinition{crd("workloads.kueue.x-k8s.io"), crd("rayjobs.ray.io"), crd("rayclusters.ray.io")}
	names := func(crds []*apiextensionsv1.CustomResourceDefinition) string {
		var out []string
		for _, c := range crds {
			out = append(out, c.Name)
		}
		return strings.Join(out, ",")
	}
	for _, tc := range []struct {
		omit    []string
		want    string
		wantErr string
	}{
		{omit: nil, want: "workloads.kueue.x-k8s.io,rayjobs.ray.io,rayclusters.ray.io"},
		{omit: []string{"rayjobs.ray.io", "rayclusters.ray.io"}, want: "workloads.kueue.x-k8s.io"},
		{omit: []string{"rayjob.ray.io"}, wantErr: `leaving CRD "rayjob.ray.io" out: no embedded CRD has that name (embedded: rayclusters.ray.io, rayjobs.ray.io, workloads.kueue.x-k8s.io)`},
	} {
		got, err := omitCRDs(append([]*apiextensionsv1.CustomResourceDefinition(nil), all...), tc.omit)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("omitCRDs(%v): error %v, want %q", tc.omit, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("omitCRDs(%v): %v", tc.omit, err)
			continue
		}
		if names(got) != tc.want {
			t.Errorf("omitCRDs(%v) = %s, want %s", tc.omit, names(got), tc.want)
		}
	}
}
