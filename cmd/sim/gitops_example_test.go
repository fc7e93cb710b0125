//go:build integration

package main

import (
	"strings"
	"testing"
)

// The worked GitOps example stays runnable: its gate scenario and the
// imported history validate, and the gate scenario's expectations hold
// for the manifests as they are (examples/gitops/README.md shows the
// failing changes).
func TestGitOpsExample(t *testing.T) {
	for _, f := range []string{"../../examples/gitops/scenario.yaml", "../../examples/gitops/imported/scenario.yaml", "../../examples/gitops/cluster.yaml"} {
		if code, out := runSim(t, "validate", f); code != 0 {
			t.Errorf("sim validate %s exited %d:\n%s", f, code, out)
		}
	}
	code, out := runSim(t, "run", "../../examples/gitops/scenario.yaml", "--progress", "none")
	if code != 0 || strings.Contains(out, "FAIL ") {
		t.Errorf("the gate scenario does not pass on the manifests as they are (exit %d):\n%s", code, out)
	}
}
