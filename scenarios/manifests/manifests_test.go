package manifests

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// TestLoadV1beta2 loads a cluster's queues as exported: the runtime fields
// and the status are dropped, each object keeps its file, document and line.
func TestLoadV1beta2(t *testing.T) {
	set, probs := Load("testdata", []string{"v1beta2.yaml"})
	if len(probs) > 0 {
		t.Fatalf("problems: %v", probs)
	}
	var got []string
	for _, o := range set.Objects {
		got = append(got, o.Name()+" at "+o.Source.String())
	}
	want := []string{
		"ResourceFlavor a100 at testdata/v1beta2.yaml:2 (document 1)",
		"ResourceFlavor h100 at testdata/v1beta2.yaml:10 (document 2)",
		"Cohort org at testdata/v1beta2.yaml:18 (document 3)",
		"ClusterQueue research at testdata/v1beta2.yaml:23 (document 4)",
		"WorkloadPriorityClass high at testdata/v1beta2.yaml:58 (document 5)",
		"Namespace research at testdata/v1beta2.yaml:64 (document 6)",
		"LocalQueue research/gpu at testdata/v1beta2.yaml:71 (document 7)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}
	cq := set.ClusterQueues()[0].Obj
	if cq.UID != "" || cq.ResourceVersion != "" || !cq.CreationTimestamp.IsZero() || cq.Status.PendingWorkloads != 0 {
		t.Errorf("runtime fields kept: uid %q, resourceVersion %q, created %v, pending %d", cq.UID, cq.ResourceVersion, cq.CreationTimestamp, cq.Status.PendingWorkloads)
	}
	if cq.Spec.QueueingStrategy != kueue.StrictFIFO || cq.Spec.FlavorFungibility.WhenCanPreempt != kueue.TryNextFlavor {
		t.Errorf("spec not decoded: %+v", cq.Spec)
	}
	if line := set.ClusterQueues()[0].Line("spec.queueingStrategy"); line != 32 {
		t.Errorf("line of spec.queueingStrategy = %d, want 32", line)
	}
}

// TestV1beta1MatchesV1beta2: the same queues written in v1beta1 (as a
// List) convert to the objects the v1beta2 file holds.
func TestV1beta1MatchesV1beta2(t *testing.T) {
	v2, probs := Load("testdata", []string{"v1beta2.yaml"})
	if len(probs) > 0 {
		t.Fatalf("v1beta2 problems: %v", probs)
	}
	v1, probs := Load("testdata", []string{"v1beta1.yaml"})
	if len(probs) > 0 {
		t.Fatalf("v1beta1 problems: %v", probs)
	}
	if len(v1.Objects) != len(v2.Objects) {
		t.Fatalf("%d objects from v1beta1, %d from v1beta2", len(v1.Objects), len(v2.Objects))
	}
	for i := range v2.Objects {
		a, b := asJSON(t, v2.Objects[i].Obj), asJSON(t, v1.Objects[i].Obj)
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("%s differs in v1beta1 (-v1beta2 +v1beta1):\n%s", v2.Objects[i].Name(), diff)
		}
	}
	if src := v1.Objects[3].Source; src.Item != 3 || src.Doc != 1 || src.Line != 23 {
		t.Errorf("source of the List's ClusterQueue = %+v, want document 1, item 3, line 23", src)
	}
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestPlatformObjects: OpenShift AI objects load, the fields their CRDs
// keep (OdhDashboardConfig) or kueue-sim ignores (other DataScienceCluster
// components) included.
func TestPlatformObjects(t *testing.T) {
	set, probs := Load("testdata", []string{"platform.yaml"})
	if len(probs) > 0 {
		t.Fatalf("problems: %v", probs)
	}
	if n := len(set.DataScienceClusters()) + len(set.HardwareProfiles()) + len(set.OdhDashboardConfigs()); n != 3 {
		t.Errorf("%d platform objects, want 3", n)
	}
}

// TestReferences resolves files, folders and globs, reading each file once.
func TestReferences(t *testing.T) {
	for _, tc := range []struct {
		name  string
		refs  []string
		files []string
		probs []string
	}{
		{"file", []string{"v1beta2.yaml"}, []string{"testdata/v1beta2.yaml"}, nil},
		{"glob, a file twice", []string{"folder/a/*.yaml", "folder/a/rf.yaml"}, []string{"testdata/folder/a/rf.yaml"}, nil},
		{"folder", []string{"folder"}, []string{"testdata/folder/a/rf.yaml", "testdata/folder/b.yml"}, nil},
		{"missing", []string{"nope.yaml"}, nil, []string{": queues.manifests[0]: no such file or folder: testdata/nope.yaml (the path is relative to the scenario's folder)"}},
		{"glob matching nothing", []string{"*.nope"}, nil, []string{`: queues.manifests[0]: the glob "*.nope" matches no file (looked for testdata/*.nope): check the path, which is relative to the scenario's folder`}},
		{"empty", []string{""}, nil, []string{": queues.manifests[0]: empty: give a file, a folder or a glob of manifests, relative to the scenario"}},
		{"empty folder", []string{"folder/empty"}, nil, []string{": queues.manifests[0]: the folder testdata/folder/empty holds no .yaml, .yml or .json file"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set, probs := Load("testdata", tc.refs)
			if diff := cmp.Diff(tc.files, set.Files); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.probs, strs(probs)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func strs(probs []Problem) []string {
	var out []string
	for _, p := range probs {
		out = append(out, p.String())
	}
	return out
}

const rf = `apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: a100
`

// TestDecodeProblems pins the message of each kind of bad manifest: the
// file, line, document, field path and fix.
func TestDecodeProblems(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       []string
	}{
		{"unknown field and wrong type at once", rf + "spec:\n  nodeLabel: {a: b}\n  tolerations: 3\n", []string{
			`m.yaml:6: document 1: spec.nodeLabel: unknown field: did you mean "nodeLabels"? (fields here: nodeLabels, nodeTaints, tolerations, topologyName; see the ResourceFlavor reference of kueue.x-k8s.io/v1beta2)`,
			`m.yaml:7: document 1: spec.tolerations: Invalid value: 3: must be a list (- item, or [a, b])`,
		}},
		{"duplicate field", rf + "  name: b\n", []string{`m.yaml:5: document 1: mapping key "name" already defined at line 4`}},
		{"unsupported kind", "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n", []string{
			`m.yaml:1: document 1: kind "Secret" (apiVersion "v1") is not supported in queues.manifests: remove the document or move it to a file the scenario does not list; supported kinds are ` + SupportedKinds,
		}},
		{"AdmissionCheck", "---\n" + rf + "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: AdmissionCheck\nmetadata: {name: prov}\n", []string{
			`m.yaml:7: document 2: kind "AdmissionCheck" (apiVersion "kueue.x-k8s.io/v1beta2") is not supported in queues.manifests: no admission-check controller runs in kueue-sim, so a ClusterQueue using it would never admit: remove it and the ClusterQueue's admissionChecks; supported kinds are ` + SupportedKinds,
		}},
		{"old Kueue version", "apiVersion: kueue.x-k8s.io/v1alpha1\nkind: Cohort\nmetadata: {name: c}\n", []string{
			`m.yaml:1: document 1: kind "Cohort" (apiVersion "kueue.x-k8s.io/v1alpha1") is not supported in queues.manifests: write it in kueue.x-k8s.io/v1beta2 (or v1beta1); supported kinds are ` + SupportedKinds,
		}},
		{"no kind", "metadata: {name: x}\n", []string{
			`m.yaml:1: document 1: apiVersion and kind are missing or not strings: a manifest starts with apiVersion and kind (e.g. apiVersion: kueue.x-k8s.io/v1beta2, kind: ClusterQueue)`,
		}},
		{"admission checks", "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: cq}\nspec:\n  admissionChecks: [prov]\n", []string{
			`m.yaml:5: document 1: spec.admissionChecks: no admission-check controller runs in kueue-sim, so the ClusterQueue would never admit: remove it`,
		}},
		{"namespace missing", "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: gpu}\nspec: {clusterQueue: cq}\n", []string{
			`m.yaml:3: document 1: metadata.namespace: required: a LocalQueue lives in a namespace; set a team's namespace`,
		}},
		{"namespace on a cluster-scoped kind", "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq, namespace: team}\n", []string{
			`m.yaml:3: document 1: metadata.namespace: a ClusterQueue is cluster-scoped: remove metadata.namespace`,
		}},
		{"no name", "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {generateName: c-}\n", []string{
			`m.yaml:3: document 1: metadata.generateName: kueue-sim applies manifests by name: set metadata.name instead`,
		}},
		{"Kueue's validation", "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq}\nspec:\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n    - name: a\n      resources:\n      - {name: cpu, nominalQuota: 1, lendingLimit: 2}\n", []string{
			`m.yaml:10: document 1: spec.resourceGroups[0].flavors[0].resources[0].lendingLimit: Invalid value: "2": must be nil when cohort is empty (Kueue's validation)`,
			`m.yaml:10: document 1: spec.resourceGroups[0].flavors[0].resources[0].lendingLimit: Invalid value: "2": must be less than or equal to the nominalQuota (Kueue's validation)`,
		}},
		{"bad quantity in a List item", "apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(rf, "\n", "\n  ") + "spec:\n    nodeTaints: [{key: k, effect: NoSchedule, value: 3}]\n", []string{
			`m.yaml:9: document 1, item 0: spec.nodeTaints[0].value: Invalid value: 3: must be a string: put the value in quotes`,
		}},
		{"defined twice", rf + "---\n" + rf, []string{
			`m.yaml:9: document 2: metadata.name: ResourceFlavor a100 is defined twice: also at m.yaml:1 (document 1); remove one or rename it`,
		}},
		{"not YAML", rf + "spec: [\n", []string{`m.yaml:5: not valid YAML: did not find expected node content: check the indentation, colons, quotes and brackets`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			objs, probs := Decode("m.yaml", []byte(tc.yaml))
			set := &Set{Objects: objs}
			probs = append(probs, set.duplicates()...)
			if diff := cmp.Diff(tc.want, strs(probs)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// TestKueueConfig reads both versions of a Configuration: v1beta1 gets
// Kueue's v1beta1 defaults and conversion, and loses nothing silently.
func TestKueueConfig(t *testing.T) {
	v2, _, probs := LoadKueueConfig("testdata", "kueue-config-v1beta2.yaml")
	if len(probs) > 0 {
		t.Fatalf("v1beta2: %v", probs)
	}
	v1, _, probs := LoadKueueConfig("testdata", "kueue-config-v1beta1.yaml")
	if len(probs) > 0 {
		t.Fatalf("v1beta1: %v", probs)
	}
	if diff := cmp.Diff(v2["fairSharing"], v1["fairSharing"]); diff != "" {
		t.Errorf("fairSharing (-v1beta2 +v1beta1):\n%s", diff)
	}
	if _, ok := v1["apiVersion"]; ok {
		t.Error("the body keeps apiVersion")
	}
	if integ, _ := v1["integrations"].(map[string]any); integ["frameworks"] != nil {
		t.Errorf("v1beta1 defaults set integrations.frameworks (%v): kueue-sim's default must apply", integ["frameworks"])
	}
	for _, tc := range []struct{ file, want string }{
		{"nope.yaml", ": cluster.kueueConfig: reading the Kueue configuration: open testdata/nope.yaml: no such file or directory (the path is relative to the scenario's folder)"},
		{"v1beta2.yaml", `testdata/v1beta2.yaml:10: document 2: a second document: the Kueue configuration file holds one Configuration`},
		{"bad-config.yaml", `testdata/bad-config.yaml:3: document 1: queueVisibility: removed in v1beta2 (Kueue serves pending workloads through the visibility API instead): remove it`},
	} {
		_, _, probs := LoadKueueConfig("testdata", tc.file)
		if got := strs(probs); len(got) != 1 || got[0] != tc.want {
			t.Errorf("LoadKueueConfig(%s) = %q, want %q", tc.file, got, tc.want)
		}
	}
}

// TestLoadAtNamesItsField checks that a reference's problem names the
// field LoadAt is given, as Load's names queues.manifests.
func TestLoadAtNamesItsField(t *testing.T) {
	set, probs := LoadAt("testdata", "changes[1].apply", []string{"v1beta2.yaml", "*.nope"})
	if diff := cmp.Diff([]string{"testdata/v1beta2.yaml"}, set.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	want := []string{`: changes[1].apply[1]: the glob "*.nope" matches no file (looked for testdata/*.nope): check the path, which is relative to the scenario's folder`}
	if diff := cmp.Diff(want, strs(probs)); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}
