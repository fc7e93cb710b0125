package main

import (
	"github.com/kueue-sim/kueue-sim/scenarios"
	"github.com/kueue-sim/kueue-sim/sim/cluster"
)

// platformOptions adds the parts of the platform a scenario runs with:
// kueue-sim's fake operators, the OpenShift AI reconciler and webhooks.
func platformOptions(s *scenarios.Scenario) []cluster.Option {
	return nil
}
