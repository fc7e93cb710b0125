// Package platform composes what runs beside Kueue in kueue-sim's control
// plane: the OpenShift AI Kueue integration (reconciler/), its admission
// webhooks (webhook/) and the fake operators for what is out of scope
// (sim/fakes). `sim up` and `sim run` start the same platform.
package platform

import (
	"k8s.io/utils/clock"

	"github.com/kueue-sim/kueue-sim/reconciler"
	"github.com/kueue-sim/kueue-sim/sim/cluster"
	"github.com/kueue-sim/kueue-sim/sim/fakes"
	"github.com/kueue-sim/kueue-sim/webhook"
)

// Settings choose the platform's variant.
type Settings struct {
	// OperatorInstalled installs the Red Hat build of Kueue operator's CRD.
	OperatorInstalled bool
	// Clock stamps the status the reconciler and fakes write; nil: real time.
	Clock clock.PassiveClock
}

// Options are the control-plane options that start the platform.
func Options(s Settings) []cluster.Option {
	c := s.Clock
	if c == nil {
		c = clock.RealClock{}
	}
	muts, vals := webhook.Configurations()
	opts := []cluster.Option{
		cluster.WithSetup(reconciler.SetupFunc(reconciler.WithClock(c))),
		cluster.WithSetup(webhook.Setup),
		cluster.WithWebhooks(muts, vals),
		cluster.WithSetup(fakes.SetupFunc(fakes.WithClock(c))),
	}
	if !s.OperatorInstalled {
		opts = append(opts, cluster.WithoutKueueOperator())
	}
	return opts
}
