package kube

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/scenarios/manifests"
)

// base is what `--cluster` gives: a scenario, or a manifests folder and the
// flavors its ResourceFlavors define.
type base struct {
	// path of the scenario file, or of the folder.
	path     string
	scenario *scenarios.Scenario
	flavors  []flavorNodes
	// loaded is the base as the loader reads it (defaults applied,
	// manifests loaded): what it declares. A folder's has its manifests
	// only.
	loaded *scenarios.Scenario
}

// readBase reads a scenario file, a folder an import wrote (its
// scenario.yaml), or a manifests folder.
func readBase(path string) (*base, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, &InputError{File: path, Msg: fmt.Sprintf("--cluster: cannot read it (%v): give a scenario file or a folder of manifests", unwrapPath(err))}
	}
	if info.IsDir() {
		if _, err := os.Stat(filepath.Join(path, ScenarioFile)); err == nil {
			return readBase(filepath.Join(path, ScenarioFile))
		}
		flavors, err := readFlavors(path)
		if err != nil {
			return nil, err
		}
		set, probs := manifests.Load(path, []string{"."})
		if len(probs) > 0 {
			return nil, &InputError{File: path, Msg: fmt.Sprintf("--cluster: the manifests do not load: %s", problemsText(probs))}
		}
		loaded := &scenarios.Scenario{}
		loaded.Loaded.Manifests = set
		return &base{path: path, flavors: flavors, loaded: loaded}, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &InputError{File: path, Msg: fmt.Sprintf("--cluster: cannot read it (%v)", unwrapPath(err))}
	}
	s := &scenarios.Scenario{}
	if err := yaml.Unmarshal(data, s); err != nil {
		return nil, &InputError{File: path, Msg: fmt.Sprintf("not a scenario: %v", err)}
	}
	if s.Kind != scenarios.Kind {
		return nil, &InputError{File: path, Msg: fmt.Sprintf("kind %q is not a %s: give a scenario file or a folder of manifests", s.Kind, scenarios.Kind)}
	}
	loaded, err := scenarios.LoadFile(path)
	if err != nil {
		return nil, &InputError{File: path, Msg: fmt.Sprintf("--cluster: give a scenario that loads (sim validate %s): %v", path, err)}
	}
	return &base{path: path, scenario: s, loaded: loaded}, nil
}

// problemsText is the manifests' problems, one after the other.
func problemsText(probs []manifests.Problem) string {
	texts := make([]string, len(probs))
	for i, p := range probs {
		texts[i] = p.String()
	}
	return strings.Join(texts, "; ")
}

// useBase takes the cluster, queues and teams from the base: a scenario's
// as they are (relative paths rewritten to resolve from dir), or a
// manifests folder copied, with a node pool inferred per ResourceFlavor.
func (imp *Import) useBase(b *base, dir string, recs []record, w window, namespaces map[string]bool) error {
	if b.scenario == nil {
		imp.CopyManifests = b.path
		flavors := b.flavors
		if len(flavors) == 0 {
			flavors = []flavorNodes{{Name: InferredFlavor}}
			recs = withoutFlavors(recs)
			imp.Notes = append(imp.Notes, fmt.Sprintf("%s defines no ResourceFlavor: one unlabelled node pool", b.path))
		}
		imp.Scenario.Cluster.NodePools = inferPools(flavors, recs, w.Now)
		imp.Scenario.Teams = teamsOf(namespaces)
		imp.Inferred = append(imp.Inferred, fmt.Sprintf(
			"%s, one per ResourceFlavor of %s with its node labels and taints, sized to the peak concurrent demand Kueue admitted on it",
			plural(len(flavors), "node pool"), filepath.Base(b.path)))
		return nil
	}
	s := b.scenario
	from := filepath.Dir(b.path)
	imp.Scenario.Cluster = s.Cluster
	imp.Scenario.Queues = s.Queues
	imp.Scenario.Queues.Manifests = nil
	for _, m := range s.Queues.Manifests {
		imp.Scenario.Queues.Manifests = append(imp.Scenario.Queues.Manifests, rebase(m, from, dir))
	}
	if s.Cluster.KueueConfig != "" {
		imp.Scenario.Cluster.KueueConfig = rebase(s.Cluster.KueueConfig, from, dir)
	}
	imp.Scenario.Teams = append([]scenarios.Team(nil), s.Teams...)
	teamOf := map[string]string{}
	for _, t := range s.Teams {
		ns := t.Namespace
		if ns == "" {
			ns = t.Name
		}
		if _, dup := teamOf[ns]; !dup {
			teamOf[ns] = t.Name
		}
	}
	for _, ns := range sortedKeys(namespaces) {
		if _, ok := teamOf[ns]; ok {
			continue
		}
		teamOf[ns] = ns
		imp.Scenario.Teams = append(imp.Scenario.Teams, scenarios.Team{Name: ns, Namespace: ns})
		imp.Added = append(imp.Added, Addition{What: "team " + ns,
			Why: fmt.Sprintf("{name: %s, namespace: %s}: the workloads run in namespace %s and --cluster %s has no team there", ns, ns, ns, b.path)})
	}
	for i := range imp.Scenario.Workloads {
		st := &imp.Scenario.Workloads[i]
		st.Team = teamOf[st.Team]
	}
	return nil
}

// rebase rewrites path p, relative to from, to be relative to dir.
func rebase(p, from, dir string) string {
	if filepath.IsAbs(p) {
		return p
	}
	abs, err := filepath.Abs(filepath.Join(from, p))
	if err != nil {
		return p
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return abs
	}
	rel, err := filepath.Rel(absDir, abs)
	if err != nil {
		return abs
	}
	return filepath.ToSlash(rel)
}

// manifestFile tells whether a folder's file is a manifest.
func manifestFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// readFlavors reads the ResourceFlavors (kueue.x-k8s.io v1beta1 or
// v1beta2: the same nodeLabels and nodeTaints) of a manifests folder.
func readFlavors(dir string) ([]flavorNodes, error) {
	var flavors []flavorNodes
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !manifestFile(path) {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("reading --cluster: %w", err)
		}
		for _, doc := range splitDocuments(data) {
			js, err := yaml.YAMLToJSON(doc.data)
			if err != nil {
				return &InputError{File: path, Line: doc.line, Doc: doc.index, Msg: fmt.Sprintf("not YAML: %v", err)}
			}
			var obj map[string]any
			if err := utiljson.Unmarshal(js, &obj); err != nil {
				return &InputError{File: path, Line: doc.line, Doc: doc.index, Msg: "not an object"}
			}
			if f, ok, msg := flavorOf(obj); msg != "" {
				return &InputError{File: path, Line: doc.line, Doc: doc.index, Msg: msg}
			} else if ok {
				flavors = append(flavors, f)
			}
		}
		return nil
	})
	if err != nil {
		var ie *InputError
		if errors.As(err, &ie) {
			return nil, err
		}
		return nil, fmt.Errorf("reading the manifests of %s: %w", dir, err)
	}
	sort.SliceStable(flavors, func(i, j int) bool { return flavors[i].Name < flavors[j].Name })
	return flavors, nil
}

func flavorOf(obj map[string]any) (flavorNodes, bool, string) {
	apiVersion, _ := obj["apiVersion"].(string)
	if kind, _ := obj["kind"].(string); kind != "ResourceFlavor" || !strings.HasPrefix(apiVersion, "kueue.x-k8s.io/") {
		return flavorNodes{}, false, ""
	}
	var rf struct {
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
		Spec struct {
			NodeLabels map[string]string `json:"nodeLabels"`
			NodeTaints []corev1.Taint    `json:"nodeTaints"`
		} `json:"spec"`
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj, &rf); err != nil {
		return flavorNodes{}, false, fmt.Sprintf("reading the ResourceFlavor: %v", err)
	}
	if rf.Metadata.Name == "" {
		return flavorNodes{}, false, "a ResourceFlavor without metadata.name"
	}
	return flavorNodes{Name: rf.Metadata.Name, Labels: rf.Spec.NodeLabels, Taints: rf.Spec.NodeTaints}, true, ""
}
