package lint

import (
	"context"
	"fmt"
	"maps"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
	"github.com/kueue-sim/kueue-sim/webhook"
)

// Rules only lint checks, beside the webhook's (webhook.Rule*).
const (
	// RuleLocalQueue: a workload names a LocalQueue its namespace lacks;
	// Kueue keeps it pending.
	RuleLocalQueue = "localQueue"
	// RuleProfileLocalQueue: a Queue hardware profile names a LocalQueue
	// missing in Kueue-managed namespaces that may use it.
	RuleProfileLocalQueue = "profileLocalQueue"
	// RuleProfilePriorityClass: a Queue hardware profile names a
	// WorkloadPriorityClass that does not exist.
	RuleProfilePriorityClass = "profilePriorityClass"
)

// Finding is one problem: the rule, the object and what to do.
type Finding struct {
	Rule string
	// Object is "Kind namespace/name" or, cluster-scoped, "Kind name".
	Object  string
	Message string
}

func (f Finding) String() string { return fmt.Sprintf("%s [%s]: %s", f.Object, f.Rule, f.Message) }

// Run checks o and returns the findings, sorted by object, rule and
// message. An error means a check could not run.
func Run(ctx context.Context, o *Objects) ([]Finding, error) {
	var out []Finding
	f := o.Snapshot.Facts()
	for i := range o.Workloads {
		fs, err := workload(ctx, f, o.Workloads[i])
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	dsc, err := f.DataScienceCluster(ctx)
	if err != nil {
		return nil, err
	}
	if dsc != nil && dsc.Spec.Components.Kueue.Enabled() {
		out = append(out, profiles(o)...)
		out = append(out, defaultClusterQueue(o, dsc)...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Object != b.Object {
			return a.Object < b.Object
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
	return out, nil
}

// workload admits a copy of w as if it were created now.
func workload(ctx context.Context, f webhook.Facts, w webhook.Workload) ([]Finding, error) {
	w.Labels = maps.Clone(w.Labels) // Default sets labels.
	obj := fmt.Sprintf("%s %s/%s", w.Kind, w.Namespace, w.Name)
	var out []Finding
	add := func(errs field.ErrorList) {
		for _, e := range errs {
			out = append(out, Finding{Rule: e.Origin, Object: obj, Message: e.Error()})
		}
	}
	warnings, errs, err := webhook.Default(ctx, f, &w, nil)
	if err != nil {
		return nil, fmt.Errorf("checking %s: %w", obj, err)
	}
	add(errs)
	for _, msg := range warnings {
		out = append(out, Finding{Rule: webhook.RuleHardwareProfile, Object: obj,
			Message: "its labels disagree with its hardware profile, which sets them when a workload is created or changes profile: " + msg})
	}
	if errs, err = webhook.Validate(ctx, f, &w, nil); err != nil {
		return nil, fmt.Errorf("checking %s: %w", obj, err)
	}
	add(errs)
	if q, _ := w.Queue(); q != "" && !reported(out, webhook.RuleNotebookQueue) {
		lq, err := f.LocalQueue(ctx, w.Namespace, q)
		if err != nil {
			return nil, fmt.Errorf("checking %s: %w", obj, err)
		}
		if lq == nil {
			out = append(out, Finding{Rule: RuleLocalQueue, Object: obj, Message: fmt.Sprintf(
				"names LocalQueue %q (label %s), which does not exist in namespace %q: Kueue keeps it pending. "+
					"To fix: create the LocalQueue or name an existing one (`kubectl get localqueues -n %s`)",
				q, webhook.QueueLabel, w.Namespace, w.Namespace)})
		}
	}
	return out, nil
}

func reported(fs []Finding, rule string) bool {
	for _, f := range fs {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

// profiles checks every hardware profile against the Kueue-managed
// namespaces that may use it: its own namespace if it is Kueue-managed,
// otherwise (a shared profile, such as the dashboard's) every one.
func profiles(o *Objects) []Finding {
	var managed []string
	isManaged := map[string]bool{}
	for _, ns := range o.Namespaces {
		if dscv1.IsKueueManaged(ns.Labels) {
			managed = append(managed, ns.Name)
			isManaged[ns.Name] = true
		}
	}
	sort.Strings(managed)
	wpcs := map[string]bool{}
	for _, pc := range o.WorkloadPriorityClasses {
		wpcs[pc.Name] = true
	}
	var out []Finding
	for _, p := range o.HardwareProfiles {
		obj := fmt.Sprintf("HardwareProfile %s/%s", p.Namespace, p.Name)
		users := managed
		if isManaged[p.Namespace] {
			users = []string{p.Namespace}
		}
		if s := p.Spec.Scheduling; s != nil && s.Type == infrav1.NodeScheduling && len(users) > 0 {
			out = append(out, Finding{Rule: webhook.RuleNodeProfile, Object: obj, Message: fmt.Sprintf(
				"schedules by node (scheduling type Node): workloads using it are refused in Kueue-managed namespaces (%s). "+
					"To fix: make it a Queue profile whose LocalQueue's ClusterQueue has a ResourceFlavor with that placement (nodeLabels, tolerations)",
				names(users))})
		}
		lq, pc, ok := webhook.ProfileQueue(&p)
		if !ok {
			continue
		}
		var missing []string
		for _, ns := range users {
			if !hasLocalQueue(o.LocalQueues, ns, lq) {
				missing = append(missing, ns)
			}
		}
		if len(missing) > 0 {
			out = append(out, Finding{Rule: RuleProfileLocalQueue, Object: obj, Message: fmt.Sprintf(
				"names LocalQueue %q (scheduling.kueue.localQueueName), missing in the Kueue-managed namespaces %s: workloads there using the profile stay pending. "+
					"To fix: create the LocalQueue there or name one they have", lq, names(missing))})
		}
		if pc != "" && !wpcs[pc] {
			out = append(out, Finding{Rule: RuleProfilePriorityClass, Object: obj, Message: fmt.Sprintf(
				"names WorkloadPriorityClass %q (scheduling.kueue.priorityClass), which does not exist: Kueue cannot make Workloads of the jobs using it. "+
					"To fix: create it (`kubectl get workloadpriorityclasses`) or correct the profile", pc)})
		}
	}
	return out
}

// defaultClusterQueue reports a preemptive platform default ClusterQueue:
// Notebooks in the default LocalQueue would be refused (rule 5).
func defaultClusterQueue(o *Objects, dsc *dscv1.DataScienceCluster) []Finding {
	name := dsc.Spec.Components.Kueue.ClusterQueueName()
	for i := range o.ClusterQueues {
		cq := &o.ClusterQueues[i]
		if cq.Name != name {
			continue
		}
		risks := webhook.PreemptionRisks(cq, o.ClusterQueues, o.Cohorts)
		if len(risks) == 0 {
			return nil
		}
		return []Finding{{Rule: webhook.RuleNotebookQueue, Object: "ClusterQueue " + name, Message: fmt.Sprintf(
			"the platform's default ClusterQueue is preemptive: %s. Notebooks in the default LocalQueue %q are refused. "+
				"To fix: set its preemption.withinClusterQueue and preemption.reclaimWithinCohort to Never and keep it from borrowing where others reclaim",
			strings.Join(risks, "; "), dsc.Spec.Components.Kueue.LocalQueueName())}}
	}
	return nil
}

func hasLocalQueue(lqs []kueue.LocalQueue, ns, name string) bool {
	for _, lq := range lqs {
		if lq.Namespace == ns && lq.Name == name {
			return true
		}
	}
	return false
}

// names joins at most five names.
func names(all []string) string {
	const most = 5
	if len(all) <= most {
		return strings.Join(all, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(all[:most], ", "), len(all)-most)
}
