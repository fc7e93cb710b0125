package kwok

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/kueue-sim/kueue-sim/nodes"
	"github.com/kueue-sim/kueue-sim/sim/assets"
)

func TestConfigRunsTheCachedBinariesWithoutPodCompletion(t *testing.T) {
	data, err := Config(assets.Binaries{Dir: "/cache"})
	if err != nil {
		t.Fatal(err)
	}
	var kinds, stages []string
	var options map[string]any
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var obj map[string]any
		if err := yaml.Unmarshal(doc, &obj); err != nil {
			t.Fatalf("document %q: %v", doc, err)
		}
		if obj == nil {
			t.Fatalf("empty document in the config:\n%s", data)
		}
		kinds = append(kinds, obj["kind"].(string))
		switch obj["kind"] {
		case "KwokctlConfiguration":
			options = obj["options"].(map[string]any)
		case "Stage":
			stages = append(stages, obj["metadata"].(map[string]any)["name"].(string))
		}
	}
	if kinds[0] != "KwokctlConfiguration" {
		t.Errorf("first document %s, want the KwokctlConfiguration", kinds[0])
	}
	for key, want := range map[string]string{
		"runtime": "binary", "kubeApiserverBinary": "/cache/kube-apiserver", "etcdBinary": "/cache/etcd",
		"kubeSchedulerBinary": "/cache/kube-scheduler", "kubeControllerManagerBinary": "/cache/kube-controller-manager",
		"kwokControllerBinary": "/cache/kwok", "kubeVersion": assets.KubernetesVersion,
	} {
		if options[key] != want {
			t.Errorf("options.%s = %v, want %s", key, options[key], want)
		}
	}
	if diff := cmp.Diff([]string{"node-initialize", "node-heartbeat-with-lease", "pod-ready", "pod-delete"}, stages); diff != "" {
		t.Errorf("stages (-want +got):\n%s", diff)
	}
	if strings.Contains(string(data), "name: pod-complete") {
		t.Error("the config completes pods by itself: runs would end before their simulated time")
	}
}

func TestNodesAreKwokNodesOfThePools(t *testing.T) {
	pool := nodes.Pool{Name: "a100", Count: 2, Labels: map[string]string{nodes.GPUProductLabel: "A100"},
		Allocatable: corev1.ResourceList{nodes.GPUResource: resource.MustParse("8")}}
	got := Nodes("run-", pool)
	if len(got) != 2 {
		t.Fatalf("%d nodes, want 2", len(got))
	}
	n := got[1]
	if n.Name != "run-a100-1" || n.Labels[corev1.LabelHostname] != n.Name {
		t.Errorf("name %s, hostname label %s", n.Name, n.Labels[corev1.LabelHostname])
	}
	if n.Annotations[NodeAnnotation] != "fake" || n.Labels[nodes.PoolLabel] != "a100" || n.Labels[nodes.GPUProductLabel] != "A100" {
		t.Errorf("annotations %v, labels %v", n.Annotations, n.Labels)
	}
	if len(n.Status.Conditions) != 0 {
		t.Errorf("conditions %v: kwok's node-initialize stage sets them", n.Status.Conditions)
	}
	if q := n.Status.Allocatable[nodes.GPUResource]; q.Value() != 8 {
		t.Errorf("allocatable GPUs %s, want 8", q.String())
	}
}
