//go:build e2e

package kind

import (
	"testing"

	"github.com/kueue-sim/kueue-sim/e2e/features"
)

// TestPlatform runs every feature against Kueue from its release manifests
// and kueue-sim's platform from config/deploy on kind.
func TestPlatform(t *testing.T) {
	if skip != "" {
		t.Skip("needs Docker and kind: " + skip)
	}
	testenv.Test(t, features.All(gpus)...)
}
