package suite

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/e2e-framework/pkg/env"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
)

// DataScienceClusterName names the DataScienceCluster the suites create.
const DataScienceClusterName = "default-dsc"

// DefaultLocalQueue is the suites' defaultLocalQueueName. Not "default":
// Kueue v0.17 (LocalQueueDefaulting) gives a job without a queue label the
// LocalQueue named "default" of its namespace, so with the platform's
// out-of-the-box name the queue-label rule would never see a job without one.
const DefaultLocalQueue = "team-queue"

// Platform creates the DataScienceCluster with Kueue Unmanaged (the
// supported setting, with the Red Hat build of Kueue operator installed)
// and the default LocalQueue DefaultLocalQueue, unless one exists, and waits
// until the platform reports Kueue ready: the reconciler has made the Kueue
// CR and the default queues.
func Platform() env.Func {
	return func(ctx context.Context, cfg *envconf.Config) (context.Context, error) {
		c, err := Client(cfg)
		if err != nil {
			return ctx, err
		}
		dsc := &dscv1.DataScienceCluster{ObjectMeta: metav1.ObjectMeta{Name: DataScienceClusterName}}
		dsc.Spec.Components.Kueue.ManagementState = dscv1.Unmanaged
		dsc.Spec.Components.Kueue.DefaultLocalQueueName = DefaultLocalQueue
		if err := c.Create(ctx, dsc); err != nil && !apierrors.IsAlreadyExists(err) {
			return ctx, fmt.Errorf("creating DataScienceCluster %s: %w", dsc.Name, err)
		}
		var last []metav1.Condition
		err = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
			var got dscv1.DataScienceCluster
			if err := c.Get(ctx, client.ObjectKeyFromObject(dsc), &got); err != nil {
				return false, nil
			}
			last = got.Status.Conditions
			return apimeta.IsStatusConditionTrue(got.Status.Conditions, dscv1.ConditionKueueReady), nil
		})
		if err != nil {
			return ctx, fmt.Errorf("waiting for the platform to report Kueue ready on DataScienceCluster %s (conditions %v): %w", dsc.Name, last, err)
		}
		return ctx, nil
	}
}
