package harness_test

import (
	"context"
	"fmt"
	"os"

	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/cluster"
	"github.com/kueue-sim/kueue-sim/sim/engine"
	"github.com/kueue-sim/kueue-sim/sim/harness"
)

// A run replays a scenario on the embedded control plane and stops it; the
// hook reads the control plane before and after the replay.
func ExampleRun() {
	s, err := scenarios.LoadFile("../../scenarios/quickstart.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := harness.Run(context.Background(), s,
		harness.WithOutput(os.Stdout),
		harness.WithDecisionLog(os.Stdout),
		harness.WithControlPlane(func(ctx context.Context, cp *cluster.ControlPlane) (func(*engine.Result, error) error, error) {
			fmt.Println("kube-apiserver at", cp.Config.Host)
			return func(res *engine.Result, err error) error {
				fmt.Println("replayed in", res.Steps, "steps; the control plane is still up")
				return nil
			}, nil
		}))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range res.Expectations {
		fmt.Println(e.Name, e.Passed)
	}
}

// Options meant for an existing cluster are refused, before anything
// starts, when the run is on the embedded control plane.
func ExampleRun_conflict() {
	s, err := scenarios.LoadFile("../../scenarios/quickstart.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = harness.Run(context.Background(), s, harness.WithKeep(true))
	fmt.Println(err)
	fmt.Println("invalid:", harness.IsInvalid(err))
	// Output:
	// WithKeep works only with WithKubeconfig (a replay on an existing cluster)
	// invalid: true
}
