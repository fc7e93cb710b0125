package kube

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
)

// withSupported makes releases kueue-sim's supported ones for the test:
// what is pinned and what is nearest do not move with the releases the
// build supports.
func withSupported(t *testing.T, releases ...string) {
	t.Helper()
	old := kueuerelease.Supported
	kueuerelease.Supported = releases
	t.Cleanup(func() { kueuerelease.Supported = old })
}

// deployment is a Deployment of one container per image; labelled gives
// it the labels of Kueue's manifests and names its first container
// manager.
func deployment(ns, name string, labelled bool, images ...string) appsv1.Deployment {
	d := appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	for i, image := range images {
		d.Spec.Template.Spec.Containers = append(d.Spec.Template.Spec.Containers,
			corev1.Container{Name: "c" + string(rune('0'+i)), Image: image})
	}
	if labelled {
		l := map[string]string{kueueNameLabel: kueueNameValue, controlPlaneLabel: controlPlaneValue}
		d.Labels, d.Spec.Template.Labels = l, l
		d.Spec.Template.Spec.Containers[0].Name = kueueContainerName
	}
	return d
}

// redHatOperator is the Red Hat build of Kueue operator's Deployment as
// OLM installs it for CSV csv.
func redHatOperator(ns, csv string) appsv1.Deployment {
	d := deployment(ns, "openshift-kueue-operator", false, "registry.redhat.io/kueue/kueue-rhel9-operator@sha256:fe4a")
	d.Labels = map[string]string{olmOwnerLabel: csv, "olm.owner.kind": "ClusterServiceVersion"}
	return d
}

func TestDetectKueue(t *testing.T) {
	const digest = "@sha256:4f3b517f24f11816bbd725341aede4975b838d7966cc7bf632bb9556c46d8a1b"
	redHatOperand := deployment("openshift-kueue-operator", "kueue-controller-manager", true, "registry.redhat.io/kueue/kueue-rhel9"+digest)
	helm := deployment("kueue", "kueue-controller-manager", true, "registry.k8s.io/kueue/kueue"+digest)
	helm.Labels = map[string]string{kueueNameLabel: kueueNameValue, controlPlaneLabel: controlPlaneValue, appVersionLabel: "v0.16.2"}
	for _, tc := range []struct {
		name    string
		deps    []appsv1.Deployment
		want    ClusterKueue
		unknown string // a part of Unknown, when Version is ""
	}{
		{name: "upstream manifests", deps: []appsv1.Deployment{
			deployment("kube-system", "coredns", false, "registry.k8s.io/coredns/coredns:v1.11.1"),
			deployment("kueue-system", "kueue-controller-manager", true, "registry.k8s.io/kueue/kueue:v0.17.1", "quay.io/brancz/kube-rbac-proxy:v0.18.0"),
		}, want: ClusterKueue{Version: "v0.17.1",
			Source: "the image registry.k8s.io/kueue/kueue:v0.17.1 of Deployment kueue-system/kueue-controller-manager"}},
		{name: "tag and digest", deps: []appsv1.Deployment{
			deployment("kueue-system", "kueue-controller-manager", true, "registry.k8s.io/kueue/kueue:v0.18.2"+digest),
		}, want: ClusterKueue{Version: "v0.18.2",
			Source: "the image registry.k8s.io/kueue/kueue:v0.18.2" + digest + " of Deployment kueue-system/kueue-controller-manager"}},
		{name: "unlabelled, mirrored through a registry with a port", deps: []appsv1.Deployment{
			deployment("batch", "queueing", false, "mirror.example:5000/k8s/kueue/kueue:0.15.3"),
		}, want: ClusterKueue{Version: "v0.15.3",
			Source: "the image mirror.example:5000/k8s/kueue/kueue:0.15.3 of Deployment batch/queueing"}},
		{name: "digest only, Helm's version label", deps: []appsv1.Deployment{helm},
			want: ClusterKueue{Version: "v0.16.2", Source: "the app.kubernetes.io/version label of Deployment kueue/kueue-controller-manager"}},
		{name: "digest only", deps: []appsv1.Deployment{
			deployment("kueue-system", "kueue-controller-manager", true, "registry.k8s.io/kueue/kueue"+digest),
		}, unknown: "the image registry.k8s.io/kueue/kueue" + digest + " of Deployment kueue-system/kueue-controller-manager names no Kueue release"},
		{name: "Red Hat build", deps: []appsv1.Deployment{
			redHatOperator("openshift-kueue-operator", "kueue-operator.v1.4.1"), redHatOperand,
		}, want: ClusterKueue{Version: "v0.18", Build: "the Red Hat build of Kueue 1.4.1",
			Source: "the OLM owner kueue-operator.v1.4.1 of Deployment openshift-kueue-operator/openshift-kueue-operator"}},
		{name: "Red Hat build of a release kueue-sim does not know", deps: []appsv1.Deployment{
			redHatOperator("openshift-kueue-operator", "kueue-operator.v9.0.0"), redHatOperand,
		}, unknown: "runs the Red Hat build of Kueue 9.0.0 (the OLM owner kueue-operator.v9.0.0 of Deployment openshift-kueue-operator/openshift-kueue-operator), whose Kueue release kueue-sim does not know"},
		{name: "Red Hat build without its operator", deps: []appsv1.Deployment{redHatOperand},
			unknown: "Deployment openshift-kueue-operator/kueue-controller-manager runs the Red Hat build of Kueue (registry.redhat.io/kueue/kueue-rhel9" + digest + ") and no Deployment's OLM owner names its release"},
		{name: "none", deps: []appsv1.Deployment{
			deployment("kube-system", "coredns", false, "registry.k8s.io/coredns/coredns:v1.11.1"),
			deployment("kueue-system", "kueueviz-backend", false, "registry.k8s.io/kueue/kueueviz-backend:v0.17.1"),
			deployment("ops", "kueue-latest", false, "registry.k8s.io/kueue/kueue:latest"),
		}, unknown: "no Deployment runs Kueue's controller-manager"},
		{name: "no Deployments", unknown: "no Deployment runs Kueue's controller-manager"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := DetectKueue(tc.deps)
			if tc.unknown != "" {
				if got.Version != "" || !strings.Contains(got.Unknown, tc.unknown) {
					t.Errorf("DetectKueue = %+v, want unknown with %q", got, tc.unknown)
				}
				return
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("DetectKueue (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPinKueue(t *testing.T) {
	withSupported(t, "v0.16.2", "v0.17.1", "v0.18.2", "v0.19.2", "v0.21.0")
	const src = "the image x of Deployment a/b"
	for _, tc := range []struct {
		name          string
		k             ClusterKueue
		field, near   string
		note, warning string
	}{
		{name: "supported", k: ClusterKueue{Version: "v0.18.2", Source: src}, field: "v0.18.2",
			note: "Kueue v0.18.2 from the image x of Deployment a/b: cluster.kueueVersion pins it"},
		{name: "another release of a supported minor", k: ClusterKueue{Version: "v0.18.0", Source: src}, near: "v0.18.2",
			warning: "the cluster runs Kueue v0.18.0 (from the image x of Deployment a/b), which kueue-sim does not replay: the scenario runs the sim's own Kueue; a comment at cluster.kueueVersion names the nearest supported release, v0.18.2"},
		{name: "a pre-release", k: ClusterKueue{Version: "v0.19.0-rc.1", Source: src}, near: "v0.19.2"},
		{name: "older than all", k: ClusterKueue{Version: "v0.11.4", Source: src}, near: "v0.16.2"},
		{name: "newer than all", k: ClusterKueue{Version: "v1.0.0", Source: src}, near: "v0.21.0"},
		{name: "between two minors as near: the newer", k: ClusterKueue{Version: "v0.20.1", Source: src}, near: "v0.21.0"},
		{name: "a supported minor", k: ClusterKueue{Version: "v0.16", Build: "the Red Hat build of Kueue 1.3.1", Source: src}, field: "v0.16",
			note: "Kueue v0.16 (the Red Hat build of Kueue 1.3.1) from the image x of Deployment a/b: cluster.kueueVersion v0.16 replays it with v0.16.2, the newest supported release of that minor"},
		{name: "an unsupported minor", k: ClusterKueue{Version: "v0.14", Build: "the Red Hat build of Kueue 1.2.0", Source: src}, near: "v0.16.2"},
		{name: "unknown", k: ClusterKueue{Unknown: "Deployments could not be listed: forbidden"},
			warning: "the cluster's Kueue release is unknown (Deployments could not be listed: forbidden): the scenario runs the sim's own Kueue; set cluster.kueueVersion to pin another"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := pinKueue(tc.k)
			if p.Field != tc.field {
				t.Errorf("field %q, want %q", p.Field, tc.field)
			}
			if tc.near != "" {
				want := "The cluster runs Kueue " + tc.k.What() + ", which kueue-sim does not replay; the nearest supported release is " +
					tc.near + " (set cluster.kueueVersion to pin it)."
				if p.Comment != want {
					t.Errorf("comment\n%s\nwant\n%s", p.Comment, want)
				}
			} else if p.Comment != "" {
				t.Errorf("comment %q, want none", p.Comment)
			}
			if tc.note != "" && p.Note != tc.note {
				t.Errorf("note\n%s\nwant\n%s", p.Note, tc.note)
			}
			if tc.warning != "" && p.Warning != tc.warning {
				t.Errorf("warning\n%s\nwant\n%s", p.Warning, tc.warning)
			}
			if (p.Warning == "") != (tc.field != "") {
				t.Errorf("warning %q with field %q: want one or the other", p.Warning, p.Field)
			}
		})
	}
}

// kueueCluster is a one-node cluster whose Kueue runs image.
func kueueCluster(t *testing.T, image string, forbid ...string) client.Reader {
	t.Helper()
	s, err := Scheme()
	if err != nil {
		t.Fatal(err)
	}
	if err := appsv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "cpu-0"}, Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{
		corev1.ResourceCPU: resource.MustParse("8"), corev1.ResourceMemory: resource.MustParse("32Gi"),
	}}}
	d := deployment("kueue-system", "kueue-controller-manager", true, image)
	return fake.NewClientBuilder().WithScheme(s).WithObjects(n, &d).WithInterceptorFuncs(listOnly(t, forbid...)).Build()
}

// The scenario of a cluster whose Kueue kueue-sim does not replay has no
// cluster.kueueVersion but a comment in its place naming the nearest
// release it does; one whose Kueue it replays pins it.
func TestFromClusterKueueVersion(t *testing.T) {
	withSupported(t, "v0.16.2", "v0.17.1", "v0.18.2", "v0.19.2")
	for _, tc := range []struct {
		name, image, want string
		// golden: the scenario loads whatever releases the build
		// supports, as TestGoldenScenariosLoad loads it.
		golden bool
	}{
		{name: "cluster-kueue-unsupported", image: "registry.k8s.io/kueue/kueue:v0.15.3", golden: true,
			want: "cluster:\n  # The cluster runs Kueue v0.15.3, which kueue-sim does not replay; the nearest supported release is v0.16.2 (set cluster.kueueVersion to pin it).\n  nodePools:\n"},
		{name: "cluster-kueue-supported", image: "registry.k8s.io/kueue/kueue:v0.18.2",
			want: "cluster:\n  kueueVersion: v0.18.2\n  nodePools:\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), tc.name)
			imp, err := FromCluster(context.Background(), kueueCluster(t, tc.image), ClusterOptions{Now: now, Dir: dir, Source: "context test (https://api.test:6443)"})
			if err != nil {
				t.Fatal(err)
			}
			if err := imp.Write(dir); err != nil {
				t.Fatal(err)
			}
			data, err := imp.YAML()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), tc.want) {
				t.Errorf("scenario.yaml lacks\n%s\n%s", tc.want, data)
			}
			if _, incomplete := Marks(imp.Scenario.Description); incomplete {
				t.Errorf("marked incomplete: %s", imp.Scenario.Description)
			}
			if tc.golden {
				checkGolden(t, dir, tc.name)
			}
		})
	}
}

// Deployments the user may not list leave the release unknown, with a
// warning, and the scenario complete; so does a cluster whose Deployments
// name no Kueue.
func TestFromClusterKueueVersionUnknown(t *testing.T) {
	for _, tc := range []struct {
		name, image string
		forbid      []string
		warning     string
	}{
		{name: "forbidden", image: "registry.k8s.io/kueue/kueue:v0.18.2", forbid: []string{"deployments.apps"},
			warning: `the cluster's Kueue release is unknown (Deployments could not be listed: deployments.apps is forbidden: User "dev" cannot list resource "deployments"`},
		{name: "digest only", image: "registry.k8s.io/kueue/kueue@sha256:4f3b",
			warning: "the cluster's Kueue release is unknown (the image registry.k8s.io/kueue/kueue@sha256:4f3b of Deployment kueue-system/kueue-controller-manager names no Kueue release)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			imp, err := FromCluster(context.Background(), kueueCluster(t, tc.image, tc.forbid...), ClusterOptions{Now: now, Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			if err := imp.Write(dir); err != nil {
				t.Fatal(err)
			}
			if len(imp.Warnings) != 1 || !strings.HasPrefix(imp.Warnings[0], tc.warning) {
				t.Errorf("warnings %q, want one starting %q", imp.Warnings, tc.warning)
			}
			if imp.Incomplete() || imp.Scenario.Cluster.KueueVersion != "" || imp.KueueComment != "" {
				t.Errorf("missing %q, kueueVersion %q, comment %q: want none", imp.Missing, imp.Scenario.Cluster.KueueVersion, imp.KueueComment)
			}
			data, err := imp.YAML()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(data), "kueueVersion") || strings.Contains(string(data), "Kueue release") {
				t.Errorf("scenario.yaml says what it does not know:\n%s", data)
			}
		})
	}
}
