package lint

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
	"github.com/kueue-sim/kueue-sim/scheme"
	"github.com/kueue-sim/kueue-sim/webhook"
)

// Objects are the objects lint reads.
type Objects struct {
	webhook.Snapshot
	WorkloadPriorityClasses []kueue.WorkloadPriorityClass
	// Workloads are the objects of the kinds webhook.Kinds covers.
	Workloads []webhook.Workload
}

// Add sorts objs into o: DataScienceClusters, Namespaces, HardwareProfiles,
// LocalQueues, ClusterQueues, Cohorts and WorkloadPriorityClasses (typed),
// and objects of the covered workload kinds (typed, unstructured or
// metadata-only); s tells the kinds of typed objects. Other objects are
// ignored, so a scenario's whole object list can be passed.
func (o *Objects) Add(s *runtime.Scheme, objs ...client.Object) error {
	for _, obj := range objs {
		switch x := obj.(type) {
		case *dscv1.DataScienceCluster:
			o.DataScienceClusters = append(o.DataScienceClusters, *x)
		case *corev1.Namespace:
			o.Namespaces = append(o.Namespaces, *x)
		case *infrav1.HardwareProfile:
			o.HardwareProfiles = append(o.HardwareProfiles, *x)
		case *kueue.LocalQueue:
			o.LocalQueues = append(o.LocalQueues, *x)
		case *kueue.ClusterQueue:
			o.ClusterQueues = append(o.ClusterQueues, *x)
		case *kueue.Cohort:
			o.Cohorts = append(o.Cohorts, *x)
		case *kueue.WorkloadPriorityClass:
			o.WorkloadPriorityClasses = append(o.WorkloadPriorityClasses, *x)
		default:
			gvk, err := apiutil.GVKForObject(obj, s)
			if err != nil {
				return fmt.Errorf("telling the kind of %T %s: %w", obj, obj.GetName(), err)
			}
			if k, ok := webhook.KindOf(gvk.GroupKind()); ok {
				o.Workloads = append(o.Workloads, *webhook.WorkloadOf(k.Kind, obj))
			}
		}
	}
	return nil
}

// Connect makes a read client for the cluster of a kubeconfig file; "" uses
// the usual rules ($KUBECONFIG, then ~/.kube/config).
func Connect(kubeconfig string) (client.Client, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = kubeconfig
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{}).ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("loading kubeconfig %q: %w", kubeconfig, err)
	}
	s, err := scheme.New()
	if err != nil {
		return nil, err
	}
	c, err := client.New(cfg, client.Options{Scheme: s})
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", cfg.Host, err)
	}
	return c, nil
}

// FromCluster reads the objects lint needs from a cluster, with list calls
// only. APIs whose CRD is not installed read as empty, except Kueue's
// (v1beta2, Kueue 0.15 and later), without which lint cannot judge queues.
func FromCluster(ctx context.Context, r client.Reader) (*Objects, error) {
	o := &Objects{}
	var (
		dscs     dscv1.DataScienceClusterList
		nss      corev1.NamespaceList
		profiles infrav1.HardwareProfileList
		lqs      kueue.LocalQueueList
		cqs      kueue.ClusterQueueList
		cohorts  kueue.CohortList
		wpcs     kueue.WorkloadPriorityClassList
	)
	for _, l := range []struct {
		list     client.ObjectList
		what     string
		required bool
	}{
		{&dscs, "DataScienceClusters", false},
		{&nss, "Namespaces", true},
		{&profiles, "HardwareProfiles", false},
		{&lqs, "LocalQueues", true},
		{&cqs, "ClusterQueues", true},
		{&cohorts, "Cohorts", false},
		{&wpcs, "WorkloadPriorityClasses", false},
	} {
		if err := list(ctx, r, l.list, l.what, l.required); err != nil {
			return nil, err
		}
	}
	o.DataScienceClusters, o.Namespaces, o.HardwareProfiles = dscs.Items, nss.Items, profiles.Items
	o.LocalQueues, o.ClusterQueues, o.Cohorts, o.WorkloadPriorityClasses = lqs.Items, cqs.Items, cohorts.Items, wpcs.Items
	for _, k := range webhook.Kinds() {
		var l metav1.PartialObjectMetadataList
		l.SetGroupVersionKind(k.GroupVersion().WithKind(k.Kind + "List"))
		if err := list(ctx, r, &l, k.Kind+"s", false); err != nil {
			return nil, err
		}
		for i := range l.Items {
			o.Workloads = append(o.Workloads, *webhook.WorkloadOf(k.Kind, &l.Items[i]))
		}
	}
	return o, nil
}

func list(ctx context.Context, r client.Reader, l client.ObjectList, what string, required bool) error {
	err := r.List(ctx, l)
	switch {
	case err == nil:
		return nil
	case apimeta.IsNoMatchError(err) && !required:
		return nil
	case apimeta.IsNoMatchError(err):
		return fmt.Errorf("listing %s: the cluster does not serve the API (lint needs Kueue 0.15 or later, kueue.x-k8s.io/v1beta2): %w", what, err)
	default:
		return fmt.Errorf("listing %s: %w", what, err)
	}
}
