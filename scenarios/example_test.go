package scenarios_test

import (
	"fmt"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// Every problem of a scenario is reported at once, each with its line,
// field path and fix.
func ExampleLoad() {
	_, err := scenarios.Load("team.yaml", "team", []byte(`apiVersion: kueue-sim/v1alpha1
kind: Scenario
cluster:
  nodePools:
  - {name: cpu, count: 1, allocatable: {cpu: "32", memory: 128Gi}}
teams:
- name: research
workloads:
- name: train
  team: reserch
  kind: Job
  count: 0
  requests: {cpu: "4"}
`))
	fmt.Println(err)
	fmt.Println("invalid:", scenarios.IsInvalid(err))
	// Output:
	// team.yaml is not a valid scenario (2 problems):
	//   team.yaml:10: workloads[0].team: Not found: "reserch": did you mean "research"? (teams are declared under teams)
	//   team.yaml:12: workloads[0].count: Invalid value: 0: must be between 1 and 100000 workloads per stream
	// invalid: true
}
