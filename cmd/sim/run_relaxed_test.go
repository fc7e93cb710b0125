package main

import (
	"testing"

	"github.com/spf13/cobra"
)

// On sim run and sim plan, --relaxed is hidden, deprecated, and sets
// --prune-finished.
func TestRelaxedIsADeprecatedAliasOfPruneFinished(t *testing.T) {
	for name, cmd := range map[string]*cobra.Command{"run": newRunCmd(), "plan": newPlanCmd()} {
		fl := cmd.Flags()
		if err := fl.Parse([]string{"--relaxed"}); err != nil {
			t.Fatalf("sim %s --relaxed: %v", name, err)
		}
		relaxed, prune := fl.Lookup("relaxed"), fl.Lookup("prune-finished")
		if relaxed == nil || prune == nil {
			t.Fatalf("sim %s lacks --relaxed or --prune-finished", name)
		}
		if relaxed.Deprecated == "" || !relaxed.Hidden {
			t.Errorf("sim %s --relaxed: deprecated %q, hidden %v; want both", name, relaxed.Deprecated, relaxed.Hidden)
		}
		if prune.Value.String() != "true" {
			t.Errorf("sim %s --relaxed left --prune-finished %s", name, prune.Value)
		}
	}
}
