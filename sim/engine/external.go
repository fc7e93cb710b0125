package engine

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kueue-sim/kueue-sim/sim/cluster"
	"github.com/kueue-sim/kueue-sim/sim/kubelet"
)

// ExternalTarget is the Target of kueue-sim's parts connected to an
// existing cluster (cluster.Connect). The cluster runs the pods: on a KWOK
// cluster, kwok marks a bound pod Running. The engine ends a pod the way a
// kubelet reports a container that ran to completion — phase Succeeded or
// Failed, terminated container statuses, stamped with clock — through the
// fake kubelet's Finish on the cluster's pod. The cluster must not end pods
// by itself (a KWOK cluster made with sim/kwok's stages does not); a real
// kubelet would overwrite the status, so this target needs KWOK nodes.
func ExternalTarget(cp *cluster.ControlPlane, c client.Client, clock clock.PassiveClock) Target {
	k := kubelet.New(c, kubelet.WithClock(clock))
	return withKueue(Target{
		Client: c,
		Cache:  cp.Manager.GetCache(),
		FinishPod: func(ctx context.Context, key client.ObjectKey, phase corev1.PodPhase) error {
			return k.Finish(ctx, key, phase)
		},
	}, cp.Kueue)
}
