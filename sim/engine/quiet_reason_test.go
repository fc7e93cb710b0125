package engine

import "testing"

func TestReasonKind(t *testing.T) {
	for in, want := range map[string]string{
		"etcd keeps changing": "etcd keeps changing",
		"workqueue_depth{controller=workload,name=workload} = 3":              "workqueue_depth{workload}",
		"workqueue_depth{name=job} = 1":                                       "workqueue_depth{job}",
		"Kueue has 4 workloads to try in ClusterQueue a":                      "Kueue has workloads to try",
		"pod ns/p-1 waits for kube-scheduler":                                 "pod waits for kube-scheduler",
		"job ns/j: kube-controller-manager has not created its pods":          "job kube-controller-manager has not created its pods",
		"3 evicted raw Workloads still hold quota":                            "evicted raw Workloads still hold quota",
		"Kueue holds 2 quota reservations in ClusterQueue a, the API shows 1": "Kueue's quota reservations not yet in the API",
		"informers have not delivered every write: pods":                      "informers have not delivered every write: pods",
		"completing evictions: completing the eviction of Workload a/b: x":    "completing evictions",
	} {
		if got := reasonKind(in); got != want {
			t.Errorf("reasonKind(%q) = %q, want %q", in, got, want)
		}
	}
}
