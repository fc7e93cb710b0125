package cluster

import "testing"

func TestResourceOfKey(t *testing.T) {
	for key, want := range map[string]string{
		"/registry/pods/ns/p":                                        "pods",
		"/registry/jobs/ns/j":                                        "jobs",
		"/registry/statefulsets/ns/s":                                "statefulsets",
		"/registry/minions/node-1":                                   "minions",
		"/registry/kueue.x-k8s.io/workloads/ns/w":                    "workloads.kueue.x-k8s.io",
		"/registry/kueue.x-k8s.io/clusterqueues/cq":                  "clusterqueues.kueue.x-k8s.io",
		"/registry/apiextensions.k8s.io/customresourcedefinitions/x": "customresourcedefinitions.apiextensions.k8s.io",
		"/registry/kubeflow.org":                                     "",
		"/registry/pods":                                             "",
		"/other/pods/ns/p":                                           "",
	} {
		if got := ResourceOfKey(key); got != want {
			t.Errorf("ResourceOfKey(%q) = %q, want %q", key, got, want)
		}
	}
}
