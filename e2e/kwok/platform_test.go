//go:build e2e

package kwok

import (
	"testing"

	"github.com/kueue-sim/kueue-sim/e2e/features"
)

// TestPlatform runs every feature against Kueue, the reconciler, the
// webhooks and the fake operators served by `sim serve` on the KWOK cluster.
func TestPlatform(t *testing.T) {
	testenv.Test(t, features.All(gpus)...)
}
