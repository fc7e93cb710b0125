//go:build e2e

package importcluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	rayutils "github.com/ray-project/kuberay/ray-operator/controllers/ray/utils"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/e2e-framework/pkg/envconf"
	"sigs.k8s.io/e2e-framework/pkg/features"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	"github.com/kueue-sim/kueue-sim/e2e/suite"
	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/engine"
)

// TestImportedTemplatesKeepPodSets replays testdata/templates (a team's own
// Job, PyTorchJob and SidecarMode RayJob) on KWOK and leaves it there
// (--keep), imports the cluster with `sim import cluster`, and checks that
// each of the run's Workloads replays its owner's manifest: the imported
// streams of the run's namespace all name a template, the templates' pod
// sets as the scenario loader counts them are the cluster's Workloads'
// (count and per-pod requests per role; a RayJob's submitter, which the
// replay adds, left out), and the replay of the import admits alike on the
// run's ClusterQueue. It runs after TestImportedClusterReplaysAlike (file
// order), whose kept run the import reads too: only the run's namespace
// and ClusterQueue are compared.
func TestImportedTemplatesKeepPodSets(t *testing.T) {
	const prefix = "tpl-"
	f := features.New("sim import cluster writes the owners' manifests as templates").
		Assess("the templates give the cluster's Workloads' pod sets", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			sim, err := suite.SimBinary(ctx)
			if err != nil {
				t.Fatal(err)
			}
			root, err := suite.RepoRoot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			// The kept run of TestImportedClusterReplaysAlike holds the
			// cluster's one DataScienceCluster, which a run on a cluster
			// creates and refuses to take over from another run.
			c, err := suite.Client(cfg)
			if err != nil {
				t.Fatal(err)
			}
			dsc := &dscv1.DataScienceCluster{ObjectMeta: metav1.ObjectMeta{Name: engine.DataScienceClusterName}}
			if err := c.Delete(ctx, dsc); err != nil && !apierrors.IsNotFound(err) {
				t.Fatalf("deleting the kept run's DataScienceCluster: %v", err)
			}
			dir := t.TempDir()
			onKwok, imported, replay := filepath.Join(dir, "kwok"), filepath.Join(dir, "imported"), filepath.Join(dir, "replay")
			scenario := filepath.Join(root, "e2e", "importcluster", "testdata", "templates", "scenario.yaml")
			suite.RunSim(ctx, t, sim, "run", scenario, "--report", onKwok, "--progress", "none",
				"--kubeconfig", cfg.KubeconfigFile(), "--kwok-nodes", "--namespace-prefix", prefix, "--keep")
			if err := suite.WaitOrphansCollected(ctx, cfg, time.Minute); err != nil {
				t.Fatal(err)
			}
			out := suite.RunSim(ctx, t, sim, "import", "cluster", "--kubeconfig", cfg.KubeconfigFile(), "--since", "87600h", "-o", imported)
			if !strings.Contains(out, "replay their owner's manifest") {
				t.Errorf("the import does not say how many workloads replay their owner's manifest:\n%s", out)
			}
			if data, err := os.ReadFile(filepath.Join(imported, "scenario.yaml")); err == nil {
				t.Logf("imported scenario:\n%s", data)
			}

			s, err := scenarios.LoadFile(filepath.Join(imported, "scenario.yaml"))
			if err != nil {
				t.Fatalf("the imported scenario does not load: %v", err)
			}
			namespaces := map[string]string{}
			for _, team := range s.Teams {
				namespaces[team.Name] = team.Namespace
			}
			templates := map[string]string{} // pod sets → template file
			for _, st := range s.Workloads {
				if !strings.HasPrefix(namespaces[st.Team], prefix) {
					continue
				}
				if st.Template == nil || st.Template.Loaded == nil {
					t.Errorf("stream %s is rebuilt from its Workloads' pod sets, not replayed from its owner's manifest", st.Name)
					continue
				}
				var sets []role
				for _, ps := range st.Template.Loaded.PodSets() {
					sets = append(sets, role{ps.Name, ps.Count, perPod(&ps.Template.Spec)})
				}
				templates[signature(sets)] = st.Template.File
			}

			var wls kueue.WorkloadList
			if err := c.List(ctx, &wls); err != nil {
				t.Fatal(err)
			}
			matched := map[string]bool{}
			n := 0
			for _, wl := range wls.Items {
				if !strings.HasPrefix(wl.Namespace, prefix) {
					continue
				}
				n++
				var sets []role
				for _, ps := range wl.Spec.PodSets {
					if ps.Name == "submitter" {
						continue
					}
					// The template's roles leave a RayJob's submitter out
					// (LoadedTemplate.PodSets): K8sJobMode's pod set above,
					// and SidecarMode's container, which Kueue v0.19 counts
					// in the head's pod set and earlier releases do not.
					spec := ps.Template.Spec.DeepCopy()
					spec.Containers = slices.DeleteFunc(spec.Containers, func(c corev1.Container) bool {
						return c.Name == rayutils.SubmitterContainerName
					})
					sets = append(sets, role{string(ps.Name), ps.Count, perPod(spec)})
				}
				sig := signature(sets)
				file, ok := templates[sig]
				if !ok {
					t.Errorf("Workload %s/%s: no imported template gives its pod sets %s; the templates give:\n%s",
						wl.Namespace, wl.Name, sig, strings.Join(keys(templates), "\n"))
					continue
				}
				matched[file] = true
			}
			if n < 6 {
				t.Fatalf("the run left %d Workloads in %s* on the cluster, want its 6", n, prefix)
			}
			if len(matched) != 3 || len(templates) != 3 {
				t.Errorf("%d templates for the run's 3 streams, %d of them matching its Workloads: %v", len(templates), len(matched), templates)
			}

			suite.RunSim(ctx, t, sim, "run", filepath.Join(imported, "scenario.yaml"), "--report", replay, "--progress", "none")
			want, err := admittedPerClusterQueue(filepath.Join(onKwok, "decisions.jsonl"), nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := admittedPerClusterQueue(filepath.Join(replay, "decisions.jsonl"), nil)
			if err != nil {
				t.Fatal(err)
			}
			for cq := range got {
				if _, ok := want[cq]; !ok {
					delete(got, cq) // the earlier test's kept run
				}
			}
			if len(want) == 0 {
				t.Fatal("the KWOK run admitted nothing")
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("admitted workloads per ClusterQueue differ, KWOK run (-) vs replay of its import (+):\n%s", diff)
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// role is one pod set: its name, pod count and one pod's requests.
type role struct {
	name     string
	count    int32
	requests string
}

// signature is the pod sets in a canonical form.
func signature(sets []role) string {
	parts := make([]string, len(sets))
	for i, r := range sets {
		parts[i] = fmt.Sprintf("%s×%d{%s}", r.name, r.count, r.requests)
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// perPod is what one pod of spec asks for, as Kueue counts it: its
// containers' requests added up (a limit where a request is missing), the
// largest init container when larger, plus overhead; name=quantity,
// sorted.
func perPod(spec *corev1.PodSpec) string {
	total := corev1.ResourceList{}
	for _, c := range spec.Containers {
		for name, q := range requestsOf(c) {
			sum := total[name]
			sum.Add(q)
			total[name] = sum
		}
	}
	for _, c := range spec.InitContainers {
		for name, q := range requestsOf(c) {
			if cur, ok := total[name]; !ok || q.Cmp(cur) > 0 {
				total[name] = q
			}
		}
	}
	for name, q := range spec.Overhead {
		sum := total[name]
		sum.Add(q)
		total[name] = sum
	}
	names := make([]string, 0, len(total))
	for name := range total {
		names = append(names, string(name))
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, name := range names {
		q := total[corev1.ResourceName(name)]
		parts[i] = name + "=" + q.String()
	}
	return strings.Join(parts, ",")
}

func requestsOf(c corev1.Container) corev1.ResourceList {
	out := c.Resources.Requests.DeepCopy()
	if out == nil {
		out = corev1.ResourceList{}
	}
	for name, q := range c.Resources.Limits {
		if _, ok := out[name]; !ok {
			out[name] = q.DeepCopy()
		}
	}
	return out
}
