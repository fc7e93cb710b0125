package kube

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
	"github.com/kueue-sim/kueue-sim/kueuerelease"
	"github.com/kueue-sim/kueue-sim/scenarios"
)

// now is the instant of the test imports: after every workload of
// testdata/workloads.yaml was created.
var now = time.Date(2025, 1, 1, 3, 0, 0, 0, time.UTC)

func node(name, product string, gpus int64, mod func(*corev1.Node)) *corev1.Node {
	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{
			corev1.LabelHostname: name, "node-class": "gpu", "unrelated": name,
		}},
		Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{
			corev1.ResourceCPU: resource.MustParse("64"), corev1.ResourceMemory: resource.MustParse("512Gi"),
			corev1.ResourcePods: resource.MustParse("110"), "hugepages-1Gi": resource.MustParse("0"),
		}},
	}
	if product != "" {
		n.Labels["nvidia.com/gpu.product"] = product
		n.Status.Allocatable["nvidia.com/gpu"] = *resource.NewQuantity(gpus, resource.DecimalSI)
		n.Spec.Taints = []corev1.Taint{{Key: "nvidia.com/gpu", Value: "present", Effect: corev1.TaintEffectNoSchedule}}
	} else {
		n.Labels["node-class"] = "cpu"
	}
	if mod != nil {
		mod(n)
	}
	return n
}

// clusterObjects are a small cluster: A100 and CPU nodes, Kueue's objects,
// the Workloads of testdata/workloads.yaml, Kueue's ConfigMap and a Secret.
func clusterObjects(t *testing.T) []client.Object {
	t.Helper()
	objs := []client.Object{
		node("a100-0", "NVIDIA-A100-SXM4-80GB", 8, nil),
		node("a100-1", "NVIDIA-A100-SXM4-80GB", 8, func(n *corev1.Node) {
			// Lifecycle taints are not the pool's.
			n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: corev1.TaintNodeNotReady, Effect: corev1.TaintEffectNoExecute})
		}),
		node("a100-2", "NVIDIA-A100-SXM4-80GB", 8, func(n *corev1.Node) { n.Spec.Unschedulable = true }),
		node("l4-0", "NVIDIA-L4", 4, nil),
		node("cpu-0", "", 0, nil),
		node("cpu-1", "", 0, nil),
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "research", Labels: map[string]string{
			ManagedLabel: "true", corev1.LabelMetadataName: "research"}}},
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "analytics"}},
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "idle", Labels: map[string]string{ManagedLabel: "true"}}},
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "kube-system"}},
		&kueue.ResourceFlavor{
			ObjectMeta: metav1.ObjectMeta{Name: "a100", UID: "u-rf", ResourceVersion: "7", Generation: 2,
				Finalizers:  []string{"kueue.x-k8s.io/resource-in-use"},
				Annotations: map[string]string{lastApplied: "{}"}},
			Spec: kueue.ResourceFlavorSpec{NodeLabels: map[string]string{"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB"}},
		},
		&kueue.ResourceFlavor{ObjectMeta: metav1.ObjectMeta{Name: "cpu"},
			Spec: kueue.ResourceFlavorSpec{NodeLabels: map[string]string{"node-class": "cpu"}}},
		&kueue.Cohort{ObjectMeta: metav1.ObjectMeta{Name: "org"}},
		&kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: "research-cq"}, Spec: kueue.ClusterQueueSpec{CohortName: "org"}},
		&kueue.LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: "train", Namespace: "research"},
			Spec:   kueue.LocalQueueSpec{ClusterQueue: "research-cq"},
			Status: kueue.LocalQueueStatus{PendingWorkloads: 1}},
		&kueue.LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: "analytics"},
			Spec: kueue.LocalQueueSpec{ClusterQueue: "shared"}},
		&kueue.WorkloadPriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "high"}, Value: 1000},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "kueue-manager-config", Namespace: "kueue-system"},
			Data: map[string]string{"controller_manager_config.yaml": "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nfairSharing: {}\n"}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "kueue-webhook-server-cert", Namespace: "kueue-system"}},
		kueueManagerDeployment("registry.k8s.io/kueue/kueue:" + kueuerelease.Default),
		&unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "infrastructure.opendatahub.io/v1", "kind": "HardwareProfile",
			"metadata": map[string]any{"name": "a100", "namespace": "redhat-ods-applications", "uid": "u-hwp"},
			"spec":     map[string]any{"scheduling": map[string]any{"type": "Queue", "kueue": map[string]any{"localQueueName": "train"}}},
		}},
	}
	wls, err := ReadWorkloads("testdata/workloads.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for i := range wls {
		objs = append(objs, &wls[i])
	}
	return objs
}

// kueueManagerDeployment is Kueue's controller-manager as its release
// manifests deploy it, running image.
func kueueManagerDeployment(image string) *appsv1.Deployment {
	labels := map[string]string{kueueNameLabel: kueueNameValue, controlPlaneLabel: controlPlaneValue}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "kueue-controller-manager", Namespace: "kueue-system", Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{controlPlaneLabel: controlPlaneValue}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{
					{Name: kueueContainerName, Image: image, Command: []string{"/manager"}},
				}},
			},
		},
	}
}

// listOnly fails the test on any call but List, and on any read of a
// Secret; forbid names resources whose lists are refused.
func listOnly(t *testing.T, forbid ...string) interceptor.Funcs {
	return interceptor.Funcs{
		Get: func(context.Context, client.WithWatch, client.ObjectKey, client.Object, ...client.GetOption) error {
			t.Error("the import made a Get call: it must list only")
			return errors.New("no Get")
		},
		List: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
			gvk := list.GetObjectKind().GroupVersionKind()
			kind := gvk.Kind
			if kind == "DataScienceClusterList" {
				// No OpenShift AI operator: its CRD is missing.
				return &meta.NoKindMatchError{GroupKind: gvk.GroupKind(), SearchedVersions: []string{gvk.Version}}
			}
			if _, ok := list.(*corev1.SecretList); ok || kind == "SecretList" {
				t.Error("the import listed Secrets")
			}
			for _, f := range forbid {
				gr := schema.ParseGroupResource(f)
				if strings.EqualFold(kind, strings.TrimSuffix(gr.Resource, "s")+"List") {
					return apierrors.NewForbidden(gr, "", errors.New(`User "dev" cannot list resource "`+gr.Resource+`" in API group "`+gr.Group+`" at the cluster scope`))
				}
			}
			return c.List(ctx, list, opts...)
		},
	}
}

func fakeCluster(t *testing.T, forbid ...string) client.Reader {
	t.Helper()
	s, err := Scheme()
	if err != nil {
		t.Fatal(err)
	}
	for _, add := range []func(*runtime.Scheme) error{infrav1.AddToScheme, appsv1.AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	return fake.NewClientBuilder().WithScheme(s).WithObjects(clusterObjects(t)...).
		WithInterceptorFuncs(listOnly(t, forbid...)).Build()
}

func TestFromCluster(t *testing.T) {
	for _, tc := range []struct {
		name       string
		forbid     []string
		incomplete []string
	}{
		{name: "cluster"},
		{name: "cluster-forbidden", forbid: []string{"clusterqueues.kueue.x-k8s.io", "nodes"},
			incomplete: []string{
				`forbidden: list clusterqueues.kueue.x-k8s.io: clusterqueues.kueue.x-k8s.io is forbidden: User "dev" cannot list resource "clusterqueues"`,
				`forbidden: list nodes: nodes is forbidden`,
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), tc.name)
			imp, err := FromCluster(context.Background(), fakeCluster(t, tc.forbid...), ClusterOptions{
				Now: now, Dir: dir, Source: "context test (https://api.test:6443)",
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := imp.Write(dir); err != nil {
				t.Fatal(err)
			}
			_, incomplete := Marks(imp.Scenario.Description)
			if incomplete != (len(tc.incomplete) > 0) {
				t.Errorf("incomplete %v: %s", incomplete, imp.Scenario.Description)
			}
			for _, want := range tc.incomplete {
				if !strings.Contains(strings.Join(imp.Missing, "\n"), want) || !strings.Contains(imp.Scenario.Description, want) {
					t.Errorf("missing %q:\n%s\n%s", want, strings.Join(imp.Missing, "\n"), imp.Scenario.Description)
				}
			}
			checkGolden(t, dir, tc.name, kueuerelease.Default, goldenDefault)
		})
	}
}

// goldenDefault is kueuerelease.Default (the release of the cluster's
// Kueue Deployment) as the cluster goldens name it: they do not change
// with the release the build defaults to.
const goldenDefault = "v0.17.1"

// A cluster that serves no Kueue v1beta2 is read in v1beta1, converted.
func TestFromClusterV1beta1(t *testing.T) {
	s, err := Scheme()
	if err != nil {
		t.Fatal(err)
	}
	rf := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "ClusterQueue",
		"metadata": map[string]any{"name": "old"},
		"spec":     map[string]any{"cohort": "legacy", "resourceGroups": []any{}},
	}}
	c := fake.NewClientBuilder().WithScheme(s).WithObjects(rf).WithInterceptorFuncs(interceptor.Funcs{
		List: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
			if list.GetObjectKind().GroupVersionKind().GroupVersion() == kueue.SchemeGroupVersion {
				gvk := list.GetObjectKind().GroupVersionKind()
				return &meta.NoKindMatchError{GroupKind: gvk.GroupKind(), SearchedVersions: []string{gvk.Version}}
			}
			return c.List(ctx, list, opts...)
		},
	}).Build()
	imp, err := FromCluster(context.Background(), c, ClusterOptions{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	cqs := imp.Manifests["ClusterQueue"]
	if len(cqs) != 1 {
		t.Fatalf("ClusterQueues %v", cqs)
	}
	spec, _ := cqs[0]["spec"].(map[string]any)
	if cqs[0]["apiVersion"] != "kueue.x-k8s.io/v1beta2" || spec["cohortName"] != "legacy" {
		t.Errorf("not converted to v1beta2: %v", cqs[0])
	}
}

// --since leaves out what finished before the window; what was created
// before it and ran into it arrives at 0 and runs for its part in the
// window.
func TestFromClusterSince(t *testing.T) {
	imp, err := FromCluster(context.Background(), fakeCluster(t), ClusterOptions{Now: now, Since: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	got := streamSpans(imp)
	want := map[string]string{
		"analytics-default-notebook-running-1": "0s",
		"analytics-default-raycluster-1":       "0s+15m0s", // 00:15 to 02:15, window from 02:00
		"research-train-job-1":                 "0s+15m0s", // pending: the median of all finished (just the RayCluster)
		"research-train-pytorch-running-1":     "0s",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("streams (-want +got):\n%s", diff)
	}
	if !strings.Contains(strings.Join(imp.Notes, "\n"), "3 workloads finished before the window (--since): left out") {
		t.Errorf("notes:\n%s", strings.Join(imp.Notes, "\n"))
	}
}

// With Remaining and History, a workload running at Now runs on for what
// alike finished runs that ran longer had left, or for the default
// without them; the import says where Now falls in simulated time.
func TestFromClusterRemaining(t *testing.T) {
	imp, err := FromCluster(context.Background(), fakeCluster(t), ClusterOptions{Now: now, Since: time.Hour, Remaining: true, RemainingDefault: 3 * time.Hour, History: true})
	if err != nil {
		t.Fatal(err)
	}
	got := streamSpans(imp)
	want := map[string]string{
		// Both run since before the window's 02:00 start, and no
		// finished run (the RayCluster's 15 minutes) ran longer: the
		// replay runs them the hour to Now (03:00), then the default.
		"analytics-default-notebook-running-1": "0s+4h0m0s",
		"analytics-default-raycluster-1":       "0s+15m0s",
		"research-train-job-pending-1":         "0s+15m0s",
		"research-train-pytorch-running-1":     "0s+4h0m0s",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("streams (-want +got):\n%s", diff)
	}
	if imp.At != time.Hour || imp.NoHistory != 2 {
		t.Errorf("At %s, NoHistory %d; want 1h0m0s (03:00 in a window from 02:00) and 2", imp.At, imp.NoHistory)
	}
	if !strings.Contains(strings.Join(imp.Notes, "\n"), "2 workloads running without a longer finished run of its stream to go by: each runs on for 3h0m0s") {
		t.Errorf("notes:\n%s", strings.Join(imp.Notes, "\n"))
	}
}

// With remaining times, a running workload is a stream of its own that
// draws what it has left from its alike finished runs that ran longer,
// and pending workloads draw their run time from the finished runs: a
// forecast's runs spread over them.
func TestStreamsDrawRemainingTimes(t *testing.T) {
	origin := now.Add(-10 * time.Hour)
	at := func(h float64) *time.Time {
		t := origin.Add(time.Duration(h * float64(time.Hour)))
		return &t
	}
	rec := func(name string, created float64, admitted, finished *time.Time) record {
		return record{Name: "ns/" + name, Namespace: "ns", Queue: "lq", Kind: scenarios.KindJob, Replicas: 1,
			Requests: corev1.ResourceList{"cpu": resource.MustParse("1")}, Created: *at(created), Admitted: admitted, Finished: finished}
	}
	recs := []record{
		rec("a", 0, at(0), at(1)), rec("b", 0, at(0), at(2)), rec("c", 0, at(0), at(4)),
		rec("running", 8, at(8), nil),   // 2h run at Now: the 4h run had 2h left
		rec("fresh", 9.5, at(9.5), nil), // 30m run: 30m, 1h30m or 3h30m left
		rec("waiting", 9, nil, nil),
	}
	res := streamsOf(recs, window{Origin: origin, Now: now}, remainingOptions{on: true, history: true})
	got := streamSpans(&Import{Scenario: &scenarios.Scenario{Workloads: res.streams}})
	want := map[string]string{
		"ns-lq-job-1":         "0s+1h0m0s,0s+2h0m0s,0s+4h0m0s",
		"ns-lq-job-pending-1": "9h0m0s+{1h0m0s 2h0m0s 4h0m0s}",
		"ns-lq-job-running-1": "9h30m0s+{1h0m0s 2h0m0s 4h0m0s}",
		"ns-lq-job-running-2": "8h0m0s+4h0m0s",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("streams (-want +got):\n%s", diff)
	}
	if res.noHistory != 0 || res.present != 10*time.Hour {
		t.Errorf("noHistory %d, present %s; want 0 and 10h0m0s", res.noHistory, res.present)
	}

	// From the present: the finished runs are left out, the running
	// ones arrive in the order they were admitted, a millisecond apart,
	// and run to the present (2.003s) and on; the pending one arrives a
	// second later.
	res = streamsOf(recs, window{Origin: origin, Now: now}, remainingOptions{on: true})
	got = streamSpans(&Import{Scenario: &scenarios.Scenario{Workloads: res.streams}})
	want = map[string]string{
		"ns-lq-job-pending-1": "1.002s+{1h0m0s 2h0m0s 4h0m0s}",
		"ns-lq-job-running-1": "1ms+{30m2.002s 1h30m2.002s 3h30m2.002s}",
		"ns-lq-job-running-2": "0s+2h0m2.003s",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("streams from the present (-want +got):\n%s", diff)
	}
	if res.leftOut != 3 || res.present != 2003*time.Millisecond {
		t.Errorf("leftOut %d, present %s; want 3 and 2.003s", res.leftOut, res.present)
	}
}

// streamSpans gives each stream's arrivals as "AT+DURATION" (or "AT" for
// a workload without a duration), comma-separated, by stream name.
func streamSpans(imp *Import) map[string]string {
	got := map[string]string{}
	for _, st := range imp.Scenario.Workloads {
		var d []string
		for i, a := range st.Arrival.At {
			s := a.Duration.String()
			switch {
			case len(st.Durations) > 0:
				s += "+" + st.Durations[i].Duration.String()
			case st.Duration != nil && st.Duration.Fixed != nil:
				s += "+" + st.Duration.Fixed.Duration.String()
			case st.Duration != nil:
				var e []string
				for _, x := range st.Duration.Empirical {
					e = append(e, x.Duration.String())
				}
				s += "+{" + strings.Join(e, " ") + "}"
			}
			d = append(d, s)
		}
		got[st.Name] = strings.Join(d, ",")
	}
	return got
}

func TestRemainingDrawsConditionOnTheTimeRun(t *testing.T) {
	runs := []time.Duration{10 * time.Minute, time.Hour, 2 * time.Hour, 3 * time.Hour}
	m := time.Minute
	for _, c := range []struct {
		elapsed time.Duration
		want    []time.Duration
	}{
		{0, []time.Duration{10 * m, 60 * m, 120 * m, 180 * m}}, // all four
		{30 * m, []time.Duration{30 * m, 90 * m, 150 * m}},     // the three longer runs' rest
		{150 * m, []time.Duration{30 * m}},                     // only the 3h run is longer
		{3 * time.Hour, nil},                                   // none is longer
	} {
		if got := remainingDraws(runs, c.elapsed); !slices.Equal(got, c.want) {
			t.Errorf("remaining after %s = %v; want %v", c.elapsed, got, c.want)
		}
	}
}

// A long history is thinned to maxDraws order statistics, its shortest
// and longest kept.
func TestSpreadThinsLongHistories(t *testing.T) {
	var ds []time.Duration
	for i := 1000; i > 0; i-- {
		ds = append(ds, time.Duration(i)*time.Second)
	}
	got := spread(ds)
	if len(got) != maxDraws || got[0] != time.Second || got[len(got)-1] != 1000*time.Second || !slices.IsSorted(got) {
		t.Errorf("spread of 1000 runs: %d values from %s to %s", len(got), got[0], got[len(got)-1])
	}
}

// Whatever lists are forbidden, the import writes a scenario that loads
// (Write verifies it), marked incomplete and inferred.
func TestFromClusterForbiddenLoads(t *testing.T) {
	for _, forbid := range [][]string{
		{"resourceflavors.kueue.x-k8s.io"},
		{"localqueues.kueue.x-k8s.io", "workloadpriorityclasses.kueue.x-k8s.io"},
		{"namespaces", "cohorts.kueue.x-k8s.io"},
		{"resourceflavors.kueue.x-k8s.io", "clusterqueues.kueue.x-k8s.io", "localqueues.kueue.x-k8s.io", "namespaces",
			"workloadpriorityclasses.kueue.x-k8s.io", "nodes", "hardwareprofiles.infrastructure.opendatahub.io"},
	} {
		t.Run(strings.Join(forbid, ","), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			imp, err := FromCluster(context.Background(), fakeCluster(t, forbid...), ClusterOptions{Now: now, Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			if err := imp.Write(dir); err != nil {
				t.Fatal(err)
			}
			if inferred, incomplete := Marks(imp.Scenario.Description); !inferred || !incomplete {
				t.Errorf("inferred %v, incomplete %v: %s", inferred, incomplete, imp.Scenario.Description)
			}
		})
	}
}

// A Workload being deleted (its owner gone, Kueue's finalizer holding it)
// is no longer demand: the import leaves it out and says how many.
func TestReplayLeavesOutWorkloadsBeingDeleted(t *testing.T) {
	podSets := []kueue.PodSet{{Name: "main", Count: 1}}
	deleted := metav1.NewTime(now)
	wls := []kueue.Workload{
		{ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "kept", CreationTimestamp: metav1.NewTime(now)},
			Spec: kueue.WorkloadSpec{QueueName: "q", PodSets: podSets}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "going", CreationTimestamp: metav1.NewTime(now),
			DeletionTimestamp: &deleted, Finalizers: []string{"kueue.x-k8s.io/resource-in-use"}},
			Spec: kueue.WorkloadSpec{QueueName: "q", PodSets: podSets}},
	}
	imp := &Import{}
	recs := imp.replay(wls, nil)
	if len(recs) != 1 || recs[0].Name != "team/kept" {
		t.Errorf("records %v, want team/kept alone", recs)
	}
	if want := "1 workload being deleted: left out"; !strings.Contains(strings.Join(imp.Notes, "\n"), want) {
		t.Errorf("notes %q lack %q", imp.Notes, want)
	}
}
