package reconciler

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMissingManagedLabels(t *testing.T) {
	cases := []struct {
		name   string
		labels map[string]string
		want   map[string]string
	}{
		{"current label only", map[string]string{"kueue.openshift.io/managed": "true"}, map[string]string{"kueue-managed": "true"}},
		{"legacy label only", map[string]string{"kueue-managed": "true"}, map[string]string{"kueue.openshift.io/managed": "true"}},
		{"both", map[string]string{"kueue-managed": "true", "kueue.openshift.io/managed": "true"}, map[string]string{}},
		{"an existing value is never changed", map[string]string{"kueue-managed": "true", "kueue.openshift.io/managed": "false"}, map[string]string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, missingManagedLabels(tc.labels)); diff != "" {
				t.Errorf("labels to add (-want +got):\n%s", diff)
			}
		})
	}
}
