package remote

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/cluster"
	"github.com/kueue-sim/kueue-sim/sim/engine"
	"github.com/kueue-sim/kueue-sim/sim/kwok"
	"github.com/kueue-sim/kueue-sim/sim/platform"
)

// Run is a scenario's setting on an existing cluster: kueue-sim's parts
// connected to it, and what the engine needs to drive it.
type Run struct {
	// ID is the run id (label kueue-sim.io/run) and Prefix the namespace
	// prefix.
	ID, Prefix string
	// Scenario is the scenario with its namespaces prefixed: give this one
	// to the engine.
	Scenario *scenarios.Scenario
	// Plane is Kueue and the platform, connected to the cluster.
	Plane *cluster.ControlPlane
	// Target is what the engine drives.
	Target engine.Target

	client client.Client
	nodes  []string
}

type options struct {
	id, prefix string
	kwokNodes  bool
	extra      []cluster.Option
}

// Option configures Start.
type Option func(*options)

// WithRunID sets the run id; default: six random hex digits.
func WithRunID(id string) Option { return func(o *options) { o.id = id } }

// WithPrefix sets the namespace prefix; default "ks-<run id>-".
func WithPrefix(p string) Option { return func(o *options) { o.prefix = p } }

// WithKwokNodes makes the scenario's node pools as KWOK fake nodes named
// <prefix><pool>-<i>, deleted by Close. Without it the cluster's own nodes
// are used as they are.
func WithKwokNodes() Option { return func(o *options) { o.kwokNodes = true } }

// WithClusterOptions passes options to cluster.Connect (a webhook address
// the cluster's API server reaches, for one).
func WithClusterOptions(opts ...cluster.Option) Option {
	return func(o *options) { o.extra = append(o.extra, opts...) }
}

// Start connects Kueue and the platform, configured as s asks and on clock,
// to the cluster cfg reaches, and makes the run's KWOK nodes if asked. On
// error, whatever it set up is undone.
func Start(ctx context.Context, cfg *rest.Config, s *scenarios.Scenario, clock *engine.VirtualClock, opts ...Option) (_ *Run, err error) {
	o := options{}
	for _, opt := range opts {
		opt(&o)
	}
	if o.id == "" {
		b := make([]byte, 3)
		if _, err := rand.Read(b); err != nil {
			return nil, fmt.Errorf("making a run id: %w", err)
		}
		o.id = hex.EncodeToString(b)
	}
	if o.prefix == "" {
		o.prefix = "ks-" + o.id + "-"
	}
	r := &Run{ID: o.id, Prefix: o.prefix}
	if r.Scenario, err = Prefixed(s, o.prefix, o.id); err != nil {
		return nil, err
	}
	kcfg, err := engine.KueueConfig(r.Scenario)
	if err != nil {
		return nil, err
	}
	copts := append([]cluster.Option{
		cluster.WithKueueConfig("scenario "+s.Name+" (cluster.kueue)", kcfg),
		cluster.WithClock(clock),
		cluster.WithWorkloadTransform(engine.WorkloadTransform(clock)),
	}, platform.Options(platform.Settings{OperatorInstalled: *s.Cluster.OpenShiftAI.OperatorInstalled, Clock: clock})...)
	if r.Plane, err = cluster.Connect(ctx, cfg, append(copts, o.extra...)...); err != nil {
		return nil, fmt.Errorf("connecting Kueue and the platform to the cluster: %w", err)
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, r.Close(context.WithoutCancel(ctx)))
		}
	}()
	ww, err := client.NewWithWatch(r.Plane.Config, client.Options{Scheme: r.Plane.Scheme})
	if err != nil {
		return nil, fmt.Errorf("connecting to the cluster: %w", err)
	}
	r.client = labellingClient(ww, o.id)
	if o.kwokNodes {
		r.nodes, err = kwok.CreateNodes(ctx, r.client, o.prefix, s.Cluster.NodePools...)
		if err != nil {
			return nil, err
		}
	}
	r.Target = engine.ExternalTarget(r.Plane, r.client, clock)
	return r, nil
}
