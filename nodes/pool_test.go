package nodes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

func TestLoadSpecErrorsNameTheFieldPath(t *testing.T) {
	cases := map[string]struct {
		yaml string
		want []string // substrings of the error
	}{
		"unknown field": {
			yaml: "pools:\n- name: a\n  count: 1\n  gpus: 8\n  allocatable: {cpu: 1}\n",
			want: []string{`unknown field "pools[0].gpus"`},
		},
		"bad name and negative count": {
			yaml: "pools:\n- name: A_100\n  count: -1\n  allocatable: {cpu: 1}\n",
			want: []string{"pools[0].name", "pools[0].count"},
		},
		"missing allocatable": {
			yaml: "pools:\n- name: a\n  count: 1\n",
			want: []string{"pools[0].allocatable: Required value"},
		},
		"duplicate names": {
			yaml: "pools:\n- {name: a, count: 1, allocatable: {cpu: 1}}\n- {name: a, count: 1, allocatable: {cpu: 1}}\n",
			want: []string{"pools[1].name: Duplicate value"},
		},
		"bad taint effect": {
			yaml: "pools:\n- {name: a, count: 1, allocatable: {cpu: 1}, taints: [{key: k, effect: Sometimes}]}\n",
			want: []string{"pools[0].taints[0].effect: Unsupported value"},
		},
		"too many nodes": {
			yaml: "pools:\n- {name: a, count: 10001, allocatable: {cpu: 1}}\n",
			want: []string{"pools[0].count"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "nodes.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := LoadSpec(path)
			if err == nil {
				t.Fatal("LoadSpec accepted invalid input")
			}
			for _, w := range append(tc.want, path) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestPoolNodesCarryLabelsCapacityAndReadiness(t *testing.T) {
	p := Pool{
		Name: "h100", Count: 2,
		Labels:      map[string]string{GPUProductLabel: "NVIDIA-H100"},
		Allocatable: corev1.ResourceList{GPUResource: resource.MustParse("8"), corev1.ResourceCPU: resource.MustParse("64")},
		Taints:      []corev1.Taint{{Key: "gpu", Effect: corev1.TaintEffectNoSchedule}},
	}
	ns := p.Nodes()
	var names []string
	for _, n := range ns {
		names = append(names, n.Name)
		if n.Labels[GPUProductLabel] != "NVIDIA-H100" || n.Labels[PoolLabel] != "h100" || n.Labels[corev1.LabelHostname] != n.Name {
			t.Errorf("node %s labels %v", n.Name, n.Labels)
		}
		if got := n.Status.Allocatable[GPUResource]; got.Cmp(resource.MustParse("8")) != 0 {
			t.Errorf("node %s allocatable GPUs %s, want 8", n.Name, got.String())
		}
		if got := n.Status.Allocatable[corev1.ResourcePods]; got.Cmp(resource.MustParse("110")) != 0 {
			t.Errorf("node %s allocatable pods %s, want the default 110", n.Name, got.String())
		}
		if len(n.Status.Conditions) != 1 || n.Status.Conditions[0].Type != corev1.NodeReady || n.Status.Conditions[0].Status != corev1.ConditionTrue {
			t.Errorf("node %s conditions %v, want Ready", n.Name, n.Status.Conditions)
		}
		if diff := cmp.Diff(p.Taints, n.Spec.Taints); diff != "" {
			t.Errorf("node %s taints (-want +got):\n%s", n.Name, diff)
		}
	}
	if diff := cmp.Diff([]string{"h100-0", "h100-1"}, names); diff != "" {
		t.Errorf("node names (-want +got):\n%s", diff)
	}
}

func TestDefaultPoolsAreValid(t *testing.T) {
	if errs := (Spec{Pools: DefaultPools()}).Validate(nil); len(errs) > 0 {
		t.Fatal(errs)
	}
}
