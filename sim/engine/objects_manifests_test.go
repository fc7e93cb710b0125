package engine

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	"github.com/kueue-sim/kueue-sim/scenarios"
)

// TestManifestClusterObjectsUnit: the manifests' objects join the cluster
// objects in creation order; a team's Namespace from the manifests keeps
// its labels and gets the managed label; creating the objects leaves the
// loaded scenario as it is.
func TestManifestClusterObjectsUnit(t *testing.T) {
	s, err := scenarios.LoadFile("../../scenarios/testdata/manifests.yaml")
	if err != nil {
		t.Fatal(err)
	}
	objs := ClusterObjects(s)
	var got []string
	for _, o := range objs {
		got = append(got, kindName(o)+" "+o.GetName())
	}
	want := []string{
		"DataScienceCluster default-dsc", "Namespace research",
		"ResourceFlavor a100", "ResourceFlavor h100", "Cohort org", "ClusterQueue research",
		"WorkloadPriorityClass high", "LocalQueue gpu",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}
	ns := objs[1].(*corev1.Namespace)
	if diff := cmp.Diff(map[string]string{"cost-center": "r-and-d", dscv1.KueueManagedLabel: "true"}, ns.Labels); diff != "" {
		t.Errorf("namespace labels (-want +got):\n%s", diff)
	}
	objs[5].(*kueue.ClusterQueue).ResourceVersion = "1"
	if s.Loaded.Manifests.ClusterQueues()[0].Obj.ResourceVersion != "" {
		t.Error("ClusterObjects hands out the loaded manifests, not copies")
	}
}

// TestManifestVersionsUnit: the same queues in kueue.x-k8s.io/v1beta1 and
// v1beta2 make the same cluster objects.
func TestManifestVersionsUnit(t *testing.T) {
	var out [2]string
	for i, f := range []string{"manifest-versions-v1beta2.yaml", "manifest-versions-v1beta1.yaml"} {
		s, err := scenarios.LoadFile("../../cmd/sim/testdata/" + f)
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.MarshalIndent(ClusterObjects(s), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		out[i] = string(data)
	}
	if diff := cmp.Diff(out[0], out[1]); diff != "" {
		t.Errorf("cluster objects (-v1beta2 +v1beta1):\n%s", diff)
	}
}

func kindName(o any) string {
	switch o.(type) {
	case *dscv1.DataScienceCluster:
		return "DataScienceCluster"
	case *corev1.Namespace:
		return "Namespace"
	case *kueue.ResourceFlavor:
		return "ResourceFlavor"
	case *kueue.Cohort:
		return "Cohort"
	case *kueue.ClusterQueue:
		return "ClusterQueue"
	case *kueue.WorkloadPriorityClass:
		return "WorkloadPriorityClass"
	case *kueue.LocalQueue:
		return "LocalQueue"
	}
	return "?"
}
