package kube

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// WorkloadsOptions are the options of an import from Workload dumps.
type WorkloadsOptions struct {
	// Cluster is a scenario file (its cluster, queues and teams are used), a
	// manifests folder (copied; node pools inferred), or empty (everything
	// but the workloads inferred).
	Cluster string
	// Dir is the folder the import is written to: paths the Cluster
	// scenario names are rewritten to resolve from it.
	Dir string
	// Name of the scenario; default: Dir's base name.
	Name string
	// Owners are dumps of the Workloads' owners (Jobs, PyTorchJobs,
	// RayJobs, RayClusters, Notebooks, InferenceServices): the Workloads
	// whose owner they hold replay its manifest, as sim import cluster's
	// do.
	Owners []string
	// Redact drops the containers' env, envFrom, command and args from
	// the owners' manifests.
	Redact bool
	// Now is the dump's instant: workloads not finished by then run on.
	// Default: its latest timestamp.
	Now time.Time
	// Remaining, RemainingDefault and History are ClusterOptions': workloads
	// running at Now run on for a remaining time (a forecast, or its
	// backtest), not for ever.
	Remaining        bool
	RemainingDefault time.Duration
	History          bool
}

// FromWorkloadFiles imports saved `kubectl get workloads -o yaml|json`
// dumps. See the package documentation.
func FromWorkloadFiles(files []string, o WorkloadsOptions) (*Import, error) {
	if o.Cluster != "" && o.Dir != "" && within(o.Cluster, o.Dir) {
		return nil, fmt.Errorf("--cluster %s is in the folder being written (%s): write to a new folder", o.Cluster, o.Dir)
	}
	var wls []kueue.Workload
	for _, f := range files {
		w, err := ReadWorkloads(f)
		if err != nil {
			return nil, err
		}
		wls = append(wls, w...)
	}
	var own *owners
	var other map[string]int
	if len(o.Owners) > 0 {
		var err error
		if own, other, err = readOwners(o.Owners); err != nil {
			return nil, err
		}
	}
	source := strings.Join(files, ", ")
	if len(o.Owners) > 0 {
		source += " (owners: " + strings.Join(o.Owners, ", ") + ")"
	}
	imp := &Import{Manifests: Manifests{}, Command: "workloads", Source: source, Scenario: newScenario(scenarioName(o.Name, o.Dir))}
	recs := imp.replay(wls, nil)
	if len(recs) == 0 {
		return nil, &InputError{File: strings.Join(files, ", "), Msg: fmt.Sprintf(
			"none of the %d Workloads can be replayed (%s)", len(wls), strings.Join(imp.Notes, "; "))}
	}
	if own != nil {
		if len(other) > 0 {
			imp.Notes = append(imp.Notes, fmt.Sprintf("--owners: left out %s (not of a kind the import replays from)", otherKinds(other)))
		}
		imp.Redacted = o.Redact
		imp.useOwners(recs, own, o.Redact)
	}
	w := windowOf(recs, nil, o.Now)
	// Without Remaining, a history: what runs at its end runs on.
	imp.addStreams(recs, w, remainingOptions{on: o.Remaining, fallback: o.RemainingDefault, history: o.History})
	namespaces := map[string]bool{}
	for _, r := range recs {
		namespaces[r.Namespace] = true
	}
	var err error
	switch {
	case o.Cluster == "":
		if err = imp.inferAll(recs, w, namespaces); err == nil {
			err = imp.complete(nil, recs, w.Now, "the dump")
		}
	default:
		var b *base
		if b, err = readBase(o.Cluster); err == nil {
			err = imp.useBase(b, o.Dir, recs, w, namespaces)
		}
		if err == nil {
			err = imp.complete(b.loaded, recs, w.Now, "--cluster "+b.path)
		}
	}
	if err != nil {
		return nil, err
	}
	if len(imp.Manifests) > 0 || imp.CopyManifests != "" {
		imp.Scenario.Queues.Manifests = append([]string{ManifestsDir}, imp.Scenario.Queues.Manifests...)
	}
	imp.describe(fmt.Sprintf("Replays %s from %s (%s to %s) in %s (imported by sim import workloads).",
		plural(imp.Workloads, "Kueue Workload"), baseNames(files), w.Origin.UTC().Format(time.RFC3339), w.Now.UTC().Format(time.RFC3339),
		plural(len(imp.Scenario.Workloads), "stream")))
	return imp, nil
}

// inferAll infers the node pool and the queues from the workloads alone.
func (imp *Import) inferAll(recs []record, w window, namespaces map[string]bool) error {
	iq, err := inferQueues(recs, w.Now)
	if err != nil {
		return err
	}
	imp.Manifests = iq.Manifests
	imp.Scenario.Cluster.NodePools = inferPools([]flavorNodes{{Name: InferredFlavor}}, withoutFlavors(recs), w.Now)
	imp.Scenario.Teams = teamsOf(namespaces)
	p := imp.Scenario.Cluster.NodePools[0]
	imp.Inferred = append(imp.Inferred,
		fmt.Sprintf("node pool %s (%d nodes of %s) sized to the workloads' peak concurrent demand", p.Name, p.Count, requestsString(p.Allocatable)),
		fmt.Sprintf("ResourceFlavor %s, Cohort %s and %s (named as the workloads' status.admission says, else <namespace>-<queue>) with nominal quota = the peak of what their workloads held at once",
			InferredFlavor, InferredCohort, plural(iq.Manifests.Count("ClusterQueue"), "ClusterQueue")),
		fmt.Sprintf("%s and %s from the workloads' spec", plural(iq.Manifests.Count("LocalQueue"), "LocalQueue"),
			plural(iq.Manifests.Count("WorkloadPriorityClass"), "WorkloadPriorityClass")))
	return nil
}

// withoutFlavors are the records with every resource on one flavor.
func withoutFlavors(recs []record) []record {
	out := make([]record, len(recs))
	for i, r := range recs {
		r.Flavors = nil
		out[i] = r
	}
	return out
}

func scenarioName(name, dir string) string {
	if name != "" {
		return name
	}
	if dir == "" {
		return "imported"
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	return sanitize(filepath.Base(abs))
}

func baseNames(files []string) string {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = filepath.Base(f)
	}
	return strings.Join(names, ", ")
}

// within tells whether path is dir or inside it.
func within(path, dir string) bool {
	p, err1 := filepath.Abs(path)
	d, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
