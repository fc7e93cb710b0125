package features

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/e2e-framework/pkg/envconf"
	"sigs.k8s.io/e2e-framework/pkg/features"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	testingjob "sigs.k8s.io/kueue/pkg/util/testingjobs/job"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
)

// DefaultQueue checks the platform's defaults: a Kueue-managed namespace
// gets the default LocalQueue (both managed labels too), which leads to the
// default non-preemptive ClusterQueue, and Kueue admits a Job sent there.
func DefaultQueue(c Cluster) features.Feature {
	return features.New("default queue creation").
		WithLabel("rule", "defaults").
		Setup(func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			return with(ctx, "ns", managedNamespace(ctx, t, Client(t, cfg), "e2e-defaults"))
		}).
		Assess("the namespace gets the default LocalQueue and both managed labels", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			k, ns := Client(t, cfg), get[string](ctx, t, "ns")
			lqName, cqName := platformQueues(ctx, t, k)
			eventually(ctx, t, "LocalQueue "+lqName+" in "+ns, func(ctx context.Context) error {
				var lq kueue.LocalQueue
				if err := k.Get(ctx, client.ObjectKey{Namespace: ns, Name: lqName}, &lq); err != nil {
					return err
				}
				if string(lq.Spec.ClusterQueue) != cqName || lq.Annotations[dscv1.ManagedAnnotation] != "false" {
					return errorf("LocalQueue default: clusterQueue %q, annotation %s=%q", lq.Spec.ClusterQueue, dscv1.ManagedAnnotation, lq.Annotations[dscv1.ManagedAnnotation])
				}
				return nil
			})
			eventually(ctx, t, "label "+dscv1.LegacyKueueManagedLabel+" on "+ns, func(ctx context.Context) error {
				var n corev1.Namespace
				if err := k.Get(ctx, client.ObjectKey{Name: ns}, &n); err != nil {
					return err
				}
				if n.Labels[dscv1.LegacyKueueManagedLabel] != "true" {
					return errorf("labels %v", n.Labels)
				}
				return nil
			})
			return ctx
		}).
		Assess("the default ClusterQueue is non-preemptive and left to the admin", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			k := Client(t, cfg)
			_, cqName := platformQueues(ctx, t, k)
			var cq kueue.ClusterQueue
			if err := k.Get(ctx, client.ObjectKey{Name: cqName}, &cq); err != nil {
				t.Fatal(err)
			}
			if p := cq.Spec.Preemption; p != nil && (p.WithinClusterQueue != kueue.PreemptionPolicyNever && p.WithinClusterQueue != "" ||
				p.ReclaimWithinCohort != kueue.PreemptionPolicyNever && p.ReclaimWithinCohort != "") {
				t.Errorf("default ClusterQueue preemption %+v, want Never/Never", *p)
			}
			if cq.Annotations[dscv1.ManagedAnnotation] != "false" {
				t.Errorf("default ClusterQueue not annotated %s=false: %v", dscv1.ManagedAnnotation, cq.Annotations)
			}
			return ctx
		}).
		Assess("Kueue admits a Job on the default LocalQueue", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			k, ns := Client(t, cfg), get[string](ctx, t, "ns")
			lqName, cqName := platformQueues(ctx, t, k)
			job := testingjob.MakeJob("on-default", ns).Queue(kueue.LocalQueueName(lqName)).Image(c.Image, nil).
				Request(corev1.ResourceCPU, "100m").Obj()
			create(ctx, t, k, job)
			eventually(ctx, t, "Kueue to admit Job "+ns+"/on-default in ClusterQueue "+cqName, func(ctx context.Context) error {
				wl, err := workloadOf(ctx, k, ns, job.Name)
				if err != nil {
					return err
				}
				if !apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadAdmitted) {
					return errorf("Workload %s not admitted: %v", wl.Name, wl.Status.Conditions)
				}
				if cq := wl.Status.Admission.ClusterQueue; string(cq) != cqName {
					return errorf("admitted in ClusterQueue %s", cq)
				}
				return nil
			})
			return ctx
		}).
		Teardown(func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			remove(ctx, t, Client(t, cfg), nsObj(get[string](ctx, t, "ns")))
			return ctx
		}).
		Feature()
}

// workloadOf finds the Workload Kueue made for the job named name in ns.
func workloadOf(ctx context.Context, k client.Client, ns, name string) (*kueue.Workload, error) {
	var wls kueue.WorkloadList
	if err := k.List(ctx, &wls, client.InNamespace(ns)); err != nil {
		return nil, err
	}
	for i := range wls.Items {
		for _, ref := range wls.Items[i].OwnerReferences {
			if ref.Name == name {
				return &wls.Items[i], nil
			}
		}
	}
	return nil, errorf("no Workload for %s/%s yet", ns, name)
}
