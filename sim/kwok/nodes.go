package kwok

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kueue-sim/kueue-sim/nodes"
)

// NodeAnnotation marks nodes kwok manages (kwokctl's other runtimes select
// nodes by it; the binary runtime manages every node).
const NodeAnnotation = "kwok.x-k8s.io/node"

// Nodes returns the pools' nodes as KWOK fake nodes: named prefix +
// <pool>-<i>, labelled as package nodes labels them (kueue-sim.io/pool, the GPU
// product, ...), with their capacity and allocatable resources but no
// conditions, which kwok's node-initialize stage sets.
func Nodes(prefix string, pools ...nodes.Pool) []*corev1.Node {
	var out []*corev1.Node
	for _, pool := range pools {
		for _, n := range pool.Nodes() {
			n.Name = prefix + n.Name
			n.Labels[corev1.LabelHostname] = n.Name
			n.Annotations = map[string]string{NodeAnnotation: "fake"}
			n.Status = corev1.NodeStatus{Capacity: n.Status.Capacity, Allocatable: n.Status.Allocatable}
			out = append(out, n)
		}
	}
	return out
}

// CreateNodes creates the pools' KWOK nodes and waits until each is Ready
// and schedulable (kube-controller-manager has lifted the not-ready taint).
// It returns the names of the nodes it created, also on error, for
// DeleteNodes.
func CreateNodes(ctx context.Context, c client.Client, prefix string, pools ...nodes.Pool) ([]string, error) {
	var created []string
	for _, n := range Nodes(prefix, pools...) {
		status := *n.Status.DeepCopy()
		if err := c.Create(ctx, n); err != nil {
			return created, fmt.Errorf("creating KWOK node %s: %w", n.Name, err)
		}
		created = append(created, n.Name)
		// A merge patch: kwok may have initialized the node's status
		// (with its default resources) already.
		base := n.DeepCopy()
		n.Status.Capacity, n.Status.Allocatable = status.Capacity, status.Allocatable
		if err := c.Status().Patch(ctx, n, client.MergeFrom(base)); err != nil {
			return created, fmt.Errorf("setting the resources of KWOK node %s: %w", n.Name, err)
		}
	}
	return created, waitSchedulable(ctx, c, created)
}

func waitSchedulable(ctx context.Context, c client.Client, names []string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	for _, name := range names {
		for {
			var n corev1.Node
			if err := c.Get(ctx, client.ObjectKey{Name: name}, &n); err != nil {
				return fmt.Errorf("waiting for KWOK node %s: %w", name, err)
			}
			if schedulable(&n) {
				break
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("waiting for KWOK node %s to be Ready and schedulable (is kwok running?): %w", name, ctx.Err())
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	return nil
}

func schedulable(n *corev1.Node) bool {
	ready := false
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady && c.Status == corev1.ConditionTrue {
			ready = true
		}
	}
	for _, t := range n.Spec.Taints {
		if t.Key == corev1.TaintNodeNotReady || t.Key == corev1.TaintNodeUnreachable {
			return false
		}
	}
	return ready
}

// DeleteNodes deletes the named nodes; absent ones are skipped.
func DeleteNodes(ctx context.Context, c client.Client, names []string) error {
	var errs []error
	for _, name := range names {
		n := &corev1.Node{}
		n.Name = name
		if err := c.Delete(ctx, n); err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, fmt.Errorf("deleting KWOK node %s: %w", name, err))
		}
	}
	return errors.Join(errs...)
}
