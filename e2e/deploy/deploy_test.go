//go:build e2e

package deploy

import (
	"strings"
	"testing"

	"github.com/kueue-sim/kueue-sim/e2e/features"
	"github.com/kueue-sim/kueue-sim/e2e/suite"
)

// TestDeployment runs every feature against the platform running as
// config/deploy's ServiceAccount beside a separate Kueue; the API server
// must not have refused the platform a single request for lack of rights.
func TestDeployment(t *testing.T) {
	testenv.Test(t, features.All(gpus)...)
	denied, err := suite.Denials("platform")
	if err != nil {
		t.Fatal(err)
	}
	if len(denied) > 0 {
		t.Errorf("config/deploy/base/rbac.yaml lacks permissions sim serve used:\n%s", strings.Join(denied, "\n"))
	}
}
