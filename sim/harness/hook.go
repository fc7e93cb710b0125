package harness

import (
	"context"

	"github.com/kueue-sim/kueue-sim/sim/cluster"
	"github.com/kueue-sim/kueue-sim/sim/engine"
)

// ControlPlaneHook is given the control plane once it is up, just before
// the replay starts: the embedded control plane, or on an existing cluster
// Kueue and the platform connected to it. The after function it returns
// (nil: none) is given the replay's result and error once the replay ends,
// before the control plane stops, so that what it measures between the two
// calls is the replay and nothing else.
//
// An error from the hook ends the run before the replay; an error from
// after is Run's error when the replay succeeded, and joined to the
// replay's otherwise.
type ControlPlaneHook func(ctx context.Context, cp *cluster.ControlPlane) (after func(*engine.Result, error) error, err error)
