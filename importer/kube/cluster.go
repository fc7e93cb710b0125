package kube

import (
	"context"
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueuev1beta1 "sigs.k8s.io/kueue/apis/kueue/v1beta1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
	odhv1alpha "github.com/kueue-sim/kueue-sim/api/opendatahub/v1alpha"
	"github.com/kueue-sim/kueue-sim/nodes"
)

// DefaultSince is how far back an import from a cluster replays Workloads.
const DefaultSince = 168 * time.Hour

// The Kueue manager's configuration: ConfigMap kueue-manager-config, key
// controller_manager_config.yaml, in the first of these namespaces that has
// it (upstream Kueue's, then the Red Hat build of Kueue's).
var (
	kueueConfigNamespaces = []string{"kueue-system", "openshift-kueue-operator"}
	kueueConfigMap        = "kueue-manager-config"
	kueueConfigKey        = "controller_manager_config.yaml"
)

// Labels that make a namespace Kueue-managed (OpenShift AI's, and the
// Red Hat build of Kueue's legacy one).
const (
	ManagedLabel       = "kueue.openshift.io/managed"
	LegacyManagedLabel = "kueue-managed"
)

// pageSize bounds each list call's page.
const pageSize = 500

// ClusterOptions are the options of an import from a live cluster.
type ClusterOptions struct {
	// Since is how far back Workloads are replayed; default DefaultSince.
	Since time.Duration
	// Now is the import's instant; default time.Now().
	Now time.Time
	// Name of the scenario; default: Dir's base name.
	Name, Dir string
	// Source names the cluster (context, server) in the top comment.
	Source string
	// Redact drops the containers' env, envFrom, command and args from
	// the owners' manifests the import writes as templates.
	Redact bool
	// Remaining makes the workloads running at Now run on for the time
	// alike workloads that ran longer had left (drawn per run), or for
	// RemainingDefault (default DefaultDuration) without such history,
	// rather than for ever: the replay then goes on past Now, as a
	// forecast needs.
	Remaining        bool
	RemainingDefault time.Duration
	// History, with Remaining, replays the workloads that finished in the
	// window too, rather than starting from the present: Kueue's
	// admission fair sharing weighs past usage.
	History bool
}

// kueueKinds are the Kueue objects an import lists, with their resources.
var kueueKinds = []struct{ kind, resource string }{
	{"ResourceFlavor", "resourceflavors"},
	{"Topology", "topologies"},
	{"Cohort", "cohorts"},
	{"AdmissionCheck", "admissionchecks"},
	{"ClusterQueue", "clusterqueues"},
	{"LocalQueue", "localqueues"},
	{"WorkloadPriorityClass", "workloadpriorityclasses"},
}

// platformKinds are the OpenShift AI objects an import lists.
var platformKinds = []struct {
	gv             schema.GroupVersion
	kind, resource string
}{
	{infrav1.GroupVersion, "HardwareProfile", "hardwareprofiles"},
	{dscv1.GroupVersion, "DataScienceCluster", "datascienceclusters"},
	{odhv1alpha.GroupVersion, "OdhDashboardConfig", "odhdashboardconfigs"},
}

// Scheme holds the types an import converts: Kubernetes' built-in ones
// and Kueue's v1beta1 and v1beta2 APIs, with their conversions.
func Scheme() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, kueue.AddToScheme, kueuev1beta1.AddToScheme} {
		if err := add(s); err != nil {
			return nil, fmt.Errorf("building the import's scheme: %w", err)
		}
	}
	return s, nil
}

// FromCluster imports a live cluster with list calls only (see the package
// documentation). A list the user may not make is recorded in Missing and
// the import goes on; any other failure stops it.
func FromCluster(ctx context.Context, c client.Reader, o ClusterOptions) (*Import, error) {
	if o.Since <= 0 {
		o.Since = DefaultSince
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	s, err := Scheme()
	if err != nil {
		return nil, err
	}
	imp := &Import{Manifests: Manifests{}, Command: "cluster", Source: o.Source, Scenario: newScenario(scenarioName(o.Name, o.Dir))}
	if imp.Source == "" {
		imp.Source = "the cluster"
	}
	r := &clusterReader{c: c, imp: imp, scheme: s}
	if err := r.read(ctx, o); err != nil {
		return nil, err
	}
	return imp, nil
}

// clusterReader lists a cluster's objects into an Import.
type clusterReader struct {
	c      client.Reader
	imp    *Import
	scheme *runtime.Scheme
}

func (r *clusterReader) read(ctx context.Context, o ClusterOptions) error {
	imp := r.imp
	for _, k := range kueueKinds {
		objs, ok, err := r.kueueObjects(ctx, k.kind, k.resource)
		if err != nil {
			return err
		}
		if ok {
			imp.Manifests.Add(k.kind, objs...)
		}
	}
	for _, k := range platformKinds {
		items, ok, err := r.list(ctx, k.gv.WithKind(k.kind), k.resource+"."+k.gv.Group)
		if err != nil {
			return err
		}
		if ok {
			for _, u := range items {
				imp.Manifests.Add(k.kind, clean(u.Object))
			}
		}
	}
	wls, err := r.workloads(ctx)
	if err != nil {
		return err
	}
	cutoff := o.Now.Add(-o.Since)
	recs := imp.replay(wls, &cutoff)
	own, err := r.listOwners(ctx, recs)
	if err != nil {
		return err
	}
	imp.Redacted = o.Redact
	imp.useOwners(recs, own, o.Redact)
	w := windowOf(recs, &cutoff, o.Now)
	if len(recs) == 0 {
		w.Origin = cutoff
	}
	imp.addStreams(recs, w, remainingOptions{on: o.Remaining, fallback: o.RemainingDefault, history: o.History})

	nodesOK, err := r.nodes(ctx, recs, w)
	if err != nil {
		return err
	}
	if err := r.namespaces(ctx, recs); err != nil {
		return err
	}
	if err := r.kueueConfig(ctx); err != nil {
		return err
	}
	if err := r.kueueVersion(ctx); err != nil {
		return err
	}
	read := fmt.Sprintf("%s, %s, %s", plural(countNodes(imp.Scenario.Cluster.NodePools), "node"),
		plural(imp.Manifests.Count("ClusterQueue"), "ClusterQueue"), plural(imp.Manifests.Count("LocalQueue"), "LocalQueue"))
	if err := imp.complete(nil, recs, w.Now, "the cluster"); err != nil {
		return err
	}
	if len(imp.Manifests) > 0 {
		imp.Scenario.Queues.Manifests = []string{ManifestsDir}
	}
	if !nodesOK {
		imp.Notes = append(imp.Notes, "the node pools are inferred: nodes could not be listed")
	}
	imp.describe(fmt.Sprintf("Imported from %s at %s by sim import cluster: %s; %s created or running since %s, in %s.",
		imp.Source, o.Now.UTC().Format(time.RFC3339), read, plural(imp.Workloads, "Kueue Workload"),
		cutoff.UTC().Format(time.RFC3339), plural(len(imp.Scenario.Workloads), "stream")))
	return nil
}

func countNodes(pools []nodes.Pool) int {
	n := 0
	for _, p := range pools {
		n += p.Count
	}
	return n
}

// list lists every object of gvk, page by page. ok is false when the kind
// could not be listed: forbidden (recorded in Missing) or not served (a
// note); other errors stop the import.
func (r *clusterReader) list(ctx context.Context, gvk schema.GroupVersionKind, resource string, opts ...client.ListOption) ([]unstructured.Unstructured, bool, error) {
	items, err := r.pages(ctx, gvk, opts...)
	switch {
	case err == nil:
		return items, true, nil
	case apierrors.IsForbidden(err):
		r.imp.Missing = append(r.imp.Missing, fmt.Sprintf("forbidden: list %s: %s", resource, reason(err)))
		return nil, false, nil
	case notServed(err):
		r.imp.Notes = append(r.imp.Notes, fmt.Sprintf("%s (%s) is not served by the cluster: skipped", resource, gvk.GroupVersion()))
		return nil, false, nil
	default:
		return nil, false, fmt.Errorf("listing %s: %w", resource, err)
	}
}

// pages lists every object of gvk, page by page, and returns the list
// call's error as it is.
func (r *clusterReader) pages(ctx context.Context, gvk schema.GroupVersionKind, opts ...client.ListOption) ([]unstructured.Unstructured, error) {
	var items []unstructured.Unstructured
	cont := ""
	for {
		l := &unstructured.UnstructuredList{}
		l.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
		o := append([]client.ListOption{client.Limit(pageSize)}, opts...)
		if cont != "" {
			o = append(o, client.Continue(cont))
		}
		if err := r.c.List(ctx, l, o...); err != nil {
			return nil, err
		}
		for _, u := range l.Items {
			if u.GetAPIVersion() == "" {
				u.SetGroupVersionKind(gvk)
			}
			items = append(items, u)
		}
		if cont = l.GetContinue(); cont == "" {
			return items, nil
		}
	}
}

// notServed tells whether err says the API is not there (no CRD).
func notServed(err error) bool {
	return meta.IsNoMatchError(err) || runtime.IsNotRegisteredError(err) || apierrors.IsNotFound(err)
}

func reason(err error) string {
	if s, ok := err.(apierrors.APIStatus); ok && s.Status().Message != "" {
		return s.Status().Message
	}
	return err.Error()
}

// kueueObjects lists a Kueue kind in v1beta2, or in v1beta1 (converted)
// when the cluster serves no v1beta2.
func (r *clusterReader) kueueObjects(ctx context.Context, kind, resource string) ([]map[string]any, bool, error) {
	res := resource + "." + kueue.SchemeGroupVersion.Group
	notes := len(r.imp.Notes)
	items, ok, err := r.list(ctx, kueue.SchemeGroupVersion.WithKind(kind), res)
	if err != nil || ok || len(r.imp.Notes) == notes {
		// Listed, failed or forbidden.
		return r.cleaned(items, kind, ok, err)
	}
	r.imp.Notes = r.imp.Notes[:notes]
	items, ok, err = r.list(ctx, kueuev1beta1.SchemeGroupVersion.WithKind(kind), res)
	if err != nil || !ok {
		return nil, ok, err
	}
	out := make([]map[string]any, 0, len(items))
	for _, u := range items {
		m, err := r.toV1beta2(u, kind)
		if err != nil {
			return nil, false, err
		}
		out = append(out, m)
	}
	return out, true, nil
}

func (r *clusterReader) cleaned(items []unstructured.Unstructured, kind string, ok bool, err error) ([]map[string]any, bool, error) {
	if err != nil || !ok {
		return nil, ok, err
	}
	out := make([]map[string]any, 0, len(items))
	for _, u := range items {
		m := clean(u.Object)
		m["apiVersion"], m["kind"] = kueue.SchemeGroupVersion.String(), kind
		out = append(out, m)
	}
	return out, true, nil
}

// toV1beta2 converts a v1beta1 Kueue object with Kueue's conversions.
func (r *clusterReader) toV1beta2(u unstructured.Unstructured, kind string) (map[string]any, error) {
	old, err := r.scheme.New(kueuev1beta1.SchemeGroupVersion.WithKind(kind))
	if err != nil {
		return nil, fmt.Errorf("converting %s %s: %w", kind, u.GetName(), err)
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, old); err != nil {
		return nil, fmt.Errorf("reading %s %s: %w", kind, u.GetName(), err)
	}
	cur, err := r.scheme.New(kueue.SchemeGroupVersion.WithKind(kind))
	if err != nil {
		return nil, fmt.Errorf("converting %s %s: %w", kind, u.GetName(), err)
	}
	if err := r.scheme.Convert(old, cur, nil); err != nil {
		return nil, fmt.Errorf("converting %s %s to v1beta2: %w", kind, u.GetName(), err)
	}
	return toMap(cur, kueue.SchemeGroupVersion.String(), kind)
}

// workloads lists the Workloads (v1beta2, else v1beta1).
func (r *clusterReader) workloads(ctx context.Context) ([]kueue.Workload, error) {
	const res = "workloads.kueue.x-k8s.io"
	notes := len(r.imp.Notes)
	items, ok, err := r.list(ctx, kueue.SchemeGroupVersion.WithKind("Workload"), res)
	if err != nil {
		return nil, err
	}
	if !ok && len(r.imp.Notes) > notes {
		r.imp.Notes = r.imp.Notes[:notes]
		if items, ok, err = r.list(ctx, kueuev1beta1.SchemeGroupVersion.WithKind("Workload"), res); err != nil {
			return nil, err
		}
	}
	out := make([]kueue.Workload, 0, len(items))
	for _, u := range items {
		wl, msg := workloadOf(u.Object)
		if msg != "" {
			return nil, fmt.Errorf("reading Workload %s/%s: %s", u.GetNamespace(), u.GetName(), msg)
		}
		out = append(out, *wl)
	}
	return out, nil
}

// nodes makes the node pools from the cluster's nodes, or infers them from
// the workloads (one per ResourceFlavor read) when nodes cannot be listed.
func (r *clusterReader) nodes(ctx context.Context, recs []record, w window) (bool, error) {
	items, ok, err := r.list(ctx, corev1.SchemeGroupVersion.WithKind("Node"), "nodes")
	if err != nil {
		return false, err
	}
	var flavors []flavorNodes
	for _, rf := range r.imp.Manifests["ResourceFlavor"] {
		if f, ok, _ := flavorOf(rf); ok {
			flavors = append(flavors, f)
		}
	}
	if !ok {
		if len(flavors) == 0 {
			flavors = []flavorNodes{{Name: InferredFlavor}}
			recs = withoutFlavors(recs)
		}
		r.imp.Scenario.Cluster.NodePools = inferPools(flavors, recs, w.Now)
		r.imp.Inferred = append(r.imp.Inferred, fmt.Sprintf(
			"%s (nodes could not be listed), one per ResourceFlavor, sized to the peak concurrent demand Kueue admitted on it",
			plural(len(flavors), "node pool")))
		return false, nil
	}
	keep := map[string]bool{nodes.GPUProductLabel: true}
	for _, f := range flavors {
		for k := range f.Labels {
			keep[k] = true
		}
	}
	for _, t := range r.imp.Manifests["Topology"] {
		for _, l := range topologyLabels(t) {
			keep[l] = true
		}
	}
	list := make([]corev1.Node, 0, len(items))
	for _, u := range items {
		var n corev1.Node
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &n); err != nil {
			return false, fmt.Errorf("reading node %s: %w", u.GetName(), err)
		}
		list = append(list, n)
	}
	pools, notes := poolsOf(list, keep)
	r.imp.Scenario.Cluster.NodePools = pools
	r.imp.Notes = append(r.imp.Notes, notes...)
	if countNodes(pools) > nodes.MaxNodes {
		r.imp.Notes = append(r.imp.Notes, fmt.Sprintf("%d nodes: over kueue-sim's limit of %d, lower the pools' counts", countNodes(pools), nodes.MaxNodes))
	}
	return true, nil
}

// topologyLabels are a Topology's levels' node labels.
func topologyLabels(t map[string]any) []string {
	spec, _ := t["spec"].(map[string]any)
	levels, _ := spec["levels"].([]any)
	var out []string
	for _, l := range levels {
		if m, ok := l.(map[string]any); ok {
			if s, ok := m["nodeLabel"].(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// namespaces writes the Kueue-managed namespaces and those the imported
// objects and workloads live in, with their labels, and makes a team of
// each that has LocalQueues or workloads (unmanaged when the namespace is
// not labelled kueue.openshift.io/managed=true).
func (r *clusterReader) namespaces(ctx context.Context, recs []record) error {
	needed := map[string]bool{}
	teams := map[string]bool{}
	for _, kind := range []string{"LocalQueue", "HardwareProfile", "OdhDashboardConfig"} {
		for _, o := range r.imp.Manifests[kind] {
			if ns := namespaceOf(o); ns != "" {
				needed[ns] = true
				if kind == "LocalQueue" {
					teams[ns] = true
				}
			}
		}
	}
	for _, rec := range recs {
		needed[rec.Namespace], teams[rec.Namespace] = true, true
	}
	items, ok, err := r.list(ctx, corev1.SchemeGroupVersion.WithKind("Namespace"), "namespaces")
	if err != nil {
		return err
	}
	labels := map[string]map[string]string{}
	for _, u := range items {
		l := u.GetLabels()
		if !needed[u.GetName()] && l[ManagedLabel] == "" && l[LegacyManagedLabel] == "" {
			continue
		}
		delete(l, corev1.LabelMetadataName)
		labels[u.GetName()] = l
		meta := map[string]any{"name": u.GetName()}
		if len(l) > 0 {
			ml := map[string]any{}
			for k, v := range l {
				ml[k] = v
			}
			meta["labels"] = ml
		}
		r.imp.Manifests.Add("Namespace", map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": meta})
	}
	r.imp.Scenario.Teams = teamsOf(teams)
	if ok {
		for i := range r.imp.Scenario.Teams {
			t := &r.imp.Scenario.Teams[i]
			t.Unmanaged = labels[t.Namespace][ManagedLabel] != "true"
		}
	}
	return nil
}

func namespaceOf(o map[string]any) string {
	meta, _ := o["metadata"].(map[string]any)
	ns, _ := meta["namespace"].(string)
	return ns
}

// kueueConfig reads the Kueue manager's ConfigMap (never a Secret).
func (r *clusterReader) kueueConfig(ctx context.Context) error {
	missing := len(r.imp.Missing)
	for _, ns := range kueueConfigNamespaces {
		items, ok, err := r.list(ctx, corev1.SchemeGroupVersion.WithKind("ConfigMap"), "configmaps in "+ns, client.InNamespace(ns))
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		for _, u := range items {
			if u.GetName() != kueueConfigMap {
				continue
			}
			data, _, _ := unstructured.NestedString(u.Object, "data", kueueConfigKey)
			if strings.TrimSpace(data) == "" {
				continue
			}
			r.imp.Missing = r.imp.Missing[:missing] // found elsewhere
			r.imp.KueueConfig = []byte(data)
			r.imp.Scenario.Cluster.KueueConfig = KueueConfigFile
			r.imp.Notes = append(r.imp.Notes, fmt.Sprintf("Kueue configuration from ConfigMap %s/%s", ns, kueueConfigMap))
			return nil
		}
	}
	r.imp.Notes = append(r.imp.Notes, fmt.Sprintf("no ConfigMap %s (in %s): the scenario runs kueue-sim's default Kueue configuration",
		kueueConfigMap, strings.Join(kueueConfigNamespaces, " or ")))
	return nil
}

// kueueVersion records the Kueue release the cluster runs (DetectKueue)
// as cluster.kueueVersion, or says why it does not (pinKueue). Deployments
// that may not be listed leave the release unknown, with a warning, and
// the scenario complete: the replay reads nothing from them.
func (r *clusterReader) kueueVersion(ctx context.Context) error {
	deps, partial, none, err := r.deployments(ctx)
	if err != nil {
		return err
	}
	k := ClusterKueue{Unknown: none}
	if none == "" {
		k = DetectKueue(deps)
		if k.Version == "" && partial != "" {
			k.Unknown += "; " + partial
		}
	}
	pin := pinKueue(k)
	r.imp.Scenario.Cluster.KueueVersion = pin.Field
	r.imp.KueueComment = pin.Comment
	if pin.Note != "" {
		r.imp.Notes = append(r.imp.Notes, pin.Note)
	}
	if pin.Warning != "" {
		r.imp.Warnings = append(r.imp.Warnings, pin.Warning)
	}
	return nil
}

// deployments lists the Deployments of every namespace or, when that is
// refused, of Kueue's namespaces (kueueConfigNamespaces): partial then
// says so; none says why no Deployment could be listed at all.
func (r *clusterReader) deployments(ctx context.Context) (deps []appsv1.Deployment, partial, none string, err error) {
	gvk := appsv1.SchemeGroupVersion.WithKind("Deployment")
	refused := func(err error) bool { return apierrors.IsForbidden(err) || notServed(err) }
	items, err := r.pages(ctx, gvk)
	if refused(err) {
		why := reason(err)
		var listed []string
		for _, ns := range kueueConfigNamespaces {
			in, err := r.pages(ctx, gvk, client.InNamespace(ns))
			if refused(err) {
				continue
			}
			if err != nil {
				return nil, "", "", fmt.Errorf("listing deployments.apps in %s: %w", ns, err)
			}
			items, listed = append(items, in...), append(listed, ns)
		}
		if len(listed) == 0 {
			return nil, "", "Deployments could not be listed: " + why, nil
		}
		partial = fmt.Sprintf("only the Deployments of %s could be listed (%s)", strings.Join(listed, " and "), why)
	} else if err != nil {
		return nil, "", "", fmt.Errorf("listing deployments.apps: %w", err)
	}
	for _, u := range items {
		var d appsv1.Deployment
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &d); err != nil {
			return nil, "", "", fmt.Errorf("reading Deployment %s/%s: %w", u.GetNamespace(), u.GetName(), err)
		}
		deps = append(deps, d)
	}
	return deps, partial, "", nil
}
