package upgrade_test

import (
	"fmt"
	"strings"

	"github.com/kueue-sim/kueue-sim/reports/upgrade"
)

// Build compares the report folders `sim upgrade` writes for each
// release: here, a training scenario on Kueue v0.17.0 and v0.19.2.
func ExampleBuild() {
	r, err := upgrade.Build("testdata/from", "testdata/to", nil, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range r.Workloads {
		fmt.Printf("%s: %s\n", d.Workload, strings.Join(d.Texts(), "; "))
	}
	fmt.Printf("breached: %v (%d metrics)\n", r.Breached(), r.Metrics.Breaches)
	// Output:
	// team-a/flavor: flavor nvidia.com/gpu: a100 -> h100
	// team-b/ready: evicted (PodsReadyTimeout) under v0.19.2 only; admitted 2 times vs 1
	// team-a/late: admitted 35m later (waited 1h5m vs 30m)
	// team-a/starved: never admitted under v0.19.2
	// breached: false (17 metrics)
}
