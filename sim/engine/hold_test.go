package engine

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

func TestReleaseOrder(t *testing.T) {
	seq := map[string]int{"ns/notebook-0": 0, "ns/batch-6": 1, "other/batch-6": 2}
	pods := []heldPod{
		{namespace: "ns", name: "stray", workload: ""},
		{namespace: "other", name: "batch-6-x", workload: "batch-6"},
		{namespace: "ns", name: "batch-6-b", workload: "batch-6"},
		{namespace: "ns", name: "batch-6-a", workload: "batch-6"},
		{namespace: "ns", name: "notebook-0-0", workload: "notebook-0"},
		{namespace: "ns", name: "urgent", workload: "batch-6", priority: 10},
	}
	releaseOrder(pods, func(ns, wl string) (int, bool) { i, ok := seq[ns+"/"+wl]; return i, ok })
	var got []string
	for _, p := range pods {
		got = append(got, p.namespace+"/"+p.name)
	}
	want := []string{"ns/urgent", "ns/notebook-0-0", "ns/batch-6-a", "ns/batch-6-b", "other/batch-6-x", "ns/stray"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("release order (-want +got):\n%s", diff)
	}
}

func TestHeldOnly(t *testing.T) {
	for _, tc := range []struct {
		name string
		pod  corev1.Pod
		want bool
	}{
		{"only the instant's gate", corev1.Pod{Spec: corev1.PodSpec{SchedulingGates: []corev1.PodSchedulingGate{{Name: InstantGate}}}}, true},
		{"no gate", corev1.Pod{}, false},
		{"another gate too", corev1.Pod{Spec: corev1.PodSpec{SchedulingGates: []corev1.PodSchedulingGate{{Name: InstantGate}, {Name: "x"}}}}, false},
		{"terminating", corev1.Pod{ObjectMeta: metav1.ObjectMeta{DeletionTimestamp: ptr.To(metav1.Now())},
			Spec: corev1.PodSpec{SchedulingGates: []corev1.PodSchedulingGate{{Name: InstantGate}}}}, false},
	} {
		if got := heldOnly(&tc.pod); got != tc.want {
			t.Errorf("%s: heldOnly = %v, want %v", tc.name, got, tc.want)
		}
	}
}
