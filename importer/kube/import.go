package kube

import (
	"fmt"
	"sort"
	"strings"
	"time"

	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// Markers of an imported scenario's description (and of its file's top
// comment): what was inferred rather than read, and what could not be read.
const (
	InferredPrefix   = "Inferred:"
	IncompletePrefix = "Incomplete:"
)

// Marks tells whether a scenario description says parts were inferred and
// whether it says the import was incomplete.
func Marks(description string) (inferred, incomplete bool) {
	return strings.Contains(description, InferredPrefix), strings.Contains(description, IncompletePrefix)
}

// MarkedSentences are the description's sentences that start with
// InferredPrefix and IncompletePrefix, without the prefix and the final
// period; "" for a mark the description lacks. A sentence ends at a period
// followed by a space, or at the end.
func MarkedSentences(description string) (inferred, incomplete string) {
	return markedSentence(description, InferredPrefix), markedSentence(description, IncompletePrefix)
}

func markedSentence(description, prefix string) string {
	i := strings.Index(description, prefix)
	if i < 0 {
		return ""
	}
	rest := description[i+len(prefix):]
	if end := strings.Index(rest, ". "); end >= 0 {
		rest = rest[:end]
	}
	return strings.TrimSuffix(strings.TrimSpace(rest), ".")
}

// HeaderMarker starts the top comment of every scenario file an import
// writes; Write only replaces a folder's earlier import when its
// scenario.yaml starts with it.
const HeaderMarker = "# Imported by sim import"

// Files an import writes in its folder.
const (
	ScenarioFile    = "scenario.yaml"
	KueueConfigFile = "kueue-config.yaml"
)

// Import is an imported scenario and the files written beside it.
type Import struct {
	Scenario  *scenarios.Scenario
	Manifests Manifests
	// CopyManifests is a folder copied as it is into manifests/ (import
	// workloads --cluster DIR).
	CopyManifests string
	// KueueConfig is the Kueue Configuration file's content, if any.
	KueueConfig []byte
	// Command is the sim import subcommand (cluster, workloads) and Source
	// where it read from, for the top comment.
	Command, Source string

	// Inferred lists what was inferred rather than read.
	Inferred []string
	// Added lists what the import added because the cluster (or the
	// --cluster base) lacks what the workloads and objects name: the
	// scenario would not load without it. Marked as inferred.
	Added []Addition
	// Missing lists what could not be read (e.g. forbidden lists): the
	// scenario is incomplete.
	Missing []string
	// Notes are what the import left out or assumed, one line each.
	Notes []string
	// Warnings are what the user should know and the scenario does not
	// say, one line each: sim import cluster prints them on stderr.
	Warnings []string
	// KueueComment stands, as a comment, at cluster.kueueVersion's place
	// in scenario.yaml while that field is unset: the cluster runs a Kueue
	// release kueue-sim does not replay, and the comment names the
	// nearest one it does.
	KueueComment string

	// Workloads counts the replayed workloads, NeverRan those given a
	// median duration because they never ran.
	Workloads, NeverRan int
	// At is the import's instant in the scenario's simulated time: where
	// the cluster's present falls in the replay.
	At time.Duration
	// NoHistory counts the running workloads given
	// ClusterOptions.RemainingDefault: no finished workload ran longer.
	NoHistory int

	// Templates are the owners' manifests the streams name, one file each
	// (templates/); Owners says how many Workloads replay their owner's
	// manifest and why the others are rebuilt from their pod sets: nil
	// when the import read no owners (sim import workloads without
	// --owners). Redacted says the templates lack the containers' env,
	// envFrom, command and args.
	Templates []*ownerTemplate
	Owners    *OwnerSummary
	Redacted  bool
}

// OwnersLine says how many Workloads replay their owner's manifest and
// how many are rebuilt from their pod sets, and why; "" when the import
// read no owners or replays no Workload.
func (imp *Import) OwnersLine() string {
	if imp.Owners == nil {
		return ""
	}
	return oneLine(imp.Owners.String())
}

// TemplateFiles are the template files' paths, relative to the import's
// folder.
func (imp *Import) TemplateFiles() []string {
	out := make([]string, len(imp.Templates))
	for i, t := range imp.Templates {
		out[i] = t.File
	}
	return out
}

// Incomplete tells whether something could not be read.
func (imp *Import) Incomplete() bool { return len(imp.Missing) > 0 }

// Addition is an object or a team an import added, and why.
type Addition struct {
	// What is added: "LocalQueue analytics/default".
	What string
	// Why: what names it, what it is made from.
	Why string
}

func (a Addition) String() string { return a.What + ": " + a.Why }

// AddedText are the additions, one line each.
func (imp *Import) AddedText() []string {
	out := make([]string, len(imp.Added))
	for i, a := range imp.Added {
		out[i] = a.String()
	}
	return out
}

// describe sets the scenario's description: what could not be read, what
// was inferred, then summary.
func (imp *Import) describe(summary string) {
	var parts []string
	if len(imp.Missing) > 0 {
		parts = append(parts, fmt.Sprintf("%s the scenario lacks what the import could not read (%s).", IncompletePrefix, strings.Join(imp.Missing, "; ")))
	}
	inferred := append([]string(nil), imp.Inferred...)
	if len(imp.Added) > 0 {
		what := make([]string, len(imp.Added))
		for i, a := range imp.Added {
			what[i] = a.What
		}
		inferred = append(inferred, fmt.Sprintf("added what the workloads and objects name and the cluster lacks, so that the scenario loads: %s (the top comment says why)",
			strings.Join(what, ", ")))
	}
	if len(inferred) > 0 {
		parts = append(parts, fmt.Sprintf("%s %s.", InferredPrefix, strings.Join(inferred, "; ")))
	}
	parts = append(parts, summary)
	imp.Scenario.Description = strings.Join(parts, " ")
}

// replay turns the Workloads into records within the window, noting the
// ones left out; cutoff, when set, leaves out workloads finished before it.
// A Workload being deleted (its owner deleted, a finalizer still holding
// it) is no longer demand: it is left out too.
func (imp *Import) replay(wls []kueue.Workload, cutoff *time.Time) []record {
	var recs []record
	finishedPending, old, deleting := 0, 0, 0
	for i := range wls {
		if wls[i].DeletionTimestamp != nil {
			deleting++
			continue
		}
		r, note, ok := fromWorkload(&wls[i])
		if note != "" {
			imp.Notes = append(imp.Notes, note)
		}
		if !ok {
			continue
		}
		if cutoff != nil && r.Finished != nil && r.Finished.Before(*cutoff) {
			old++
			continue
		}
		if r.Finished != nil && r.Admitted == nil {
			finishedPending++
			continue
		}
		recs = append(recs, r)
	}
	if deleting > 0 {
		imp.Notes = append(imp.Notes, fmt.Sprintf("%s being deleted: left out", plural(deleting, "workload")))
	}
	if old > 0 {
		imp.Notes = append(imp.Notes, fmt.Sprintf("%s finished before the window (--since): left out", plural(old, "workload")))
	}
	if finishedPending > 0 {
		imp.Notes = append(imp.Notes, fmt.Sprintf("%s finished without being admitted (deactivated or ended while pending): left out", plural(finishedPending, "workload")))
	}
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].Name < recs[j].Name })
	return recs
}

// windowOf spans the records: from the earliest creation (not before
// cutoff, when set) to now (the latest time the records show, when zero).
func windowOf(recs []record, cutoff *time.Time, now time.Time) window {
	var w window
	for i, r := range recs {
		if i == 0 || r.Created.Before(w.Origin) {
			w.Origin = r.Created
		}
		if now.IsZero() {
			for _, t := range []*time.Time{&r.Created, r.Admitted, r.Finished} {
				if t != nil && t.After(w.Now) {
					w.Now = *t
				}
			}
		}
	}
	if cutoff != nil && w.Origin.Before(*cutoff) {
		w.Origin = *cutoff
	}
	if !now.IsZero() {
		w.Now = now
	}
	return w
}

// addStreams makes the records streams and teams (one per namespace, named
// after it, unless teamOf names another).
func (imp *Import) addStreams(recs []record, w window, rem remainingOptions) {
	folded, notes := foldOwners(recs)
	imp.Notes = append(imp.Notes, notes...)
	res := streamsOf(folded, w, rem)
	neverRan, noHistory := res.neverRan, res.noHistory
	imp.Scenario.Workloads = res.streams
	imp.At = res.present
	imp.NoHistory = noHistory
	if res.leftOut > 0 {
		imp.Notes = append(imp.Notes, fmt.Sprintf("%s finished before now: left out, the replay starts from the present (give the history to replay them, for Kueue's admission fair sharing)", plural(res.leftOut, "workload")))
	}
	if noHistory > 0 {
		imp.Notes = append(imp.Notes, fmt.Sprintf("%s running without a longer finished run of its stream to go by: each runs on for %s", plural(noHistory, "workload"), rem.fallbackOrDefault()))
	}
	imp.Workloads = len(recs)
	imp.NeverRan = neverRan
	if neverRan > 0 {
		how := "the median duration"
		if rem.on {
			how = "a run time drawn from those"
		}
		imp.Notes = append(imp.Notes, fmt.Sprintf("%s never ran: each runs for %s of its stream's finished workloads (of all, when none; %s when none finished)", plural(neverRan, "workload"), how, DefaultDuration))
	}
}

// teamsOf are {name: namespace, namespace} for each namespace, sorted.
func teamsOf(namespaces map[string]bool) []scenarios.Team {
	teams := make([]scenarios.Team, 0, len(namespaces))
	for _, ns := range sortedKeys(namespaces) {
		teams = append(teams, scenarios.Team{Name: ns, Namespace: ns})
	}
	return teams
}

// newScenario is an empty scenario named name.
func newScenario(name string) *scenarios.Scenario {
	return &scenarios.Scenario{APIVersion: scenarios.APIVersion, Kind: scenarios.Kind, Name: name}
}
