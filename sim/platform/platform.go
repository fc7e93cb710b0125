// Package platform composes what runs beside Kueue in kueue-sim's control
// plane: the OpenShift AI Kueue integration (reconciler/), its admission
// webhooks (webhook/) and the fake operators for what is out of scope
// (sim/fakes). `sim up` and `sim run` start the same platform.
package platform

import (
	"slices"

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
	// Operators are the fake operators to run; the CRDs of the others are
	// left out. Nil runs them all (`sim up`, where users bring any
	// object); an empty, non-nil list runs none (a replay of raw
	// Workloads or Jobs).
	Operators []fakes.Kind
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
	}
	if s.Operators == nil {
		opts = append(opts, cluster.WithSetup(fakes.SetupFunc(fakes.WithClock(c))))
	} else {
		opts = append(opts, cluster.WithSetup(fakes.SetupFunc(fakes.WithClock(c), fakes.WithKinds(s.Operators...))))
		var omit []string
		for _, k := range fakes.AllKinds {
			if !slices.Contains(s.Operators, k) {
				omit = append(omit, k.CRD())
			}
		}
		opts = append(opts, cluster.WithoutCRDs(omit...))
	}
	if !s.OperatorInstalled {
		opts = append(opts, cluster.WithoutKueueOperator())
	}
	return opts
}
