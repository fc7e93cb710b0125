package kube

import (
	"fmt"
	"path/filepath"

	"github.com/kueue-sim/kueue-sim/scenarios"
)

// Verify loads the scenario an import wrote into dir with the scenario
// loader, as sim validate and sim run do. The import adds what the
// scenario names and the cluster lacks (see complete): a scenario that
// still does not load is the importer's bug, said so.
func Verify(dir string) error {
	if _, err := scenarios.LoadFile(filepath.Join(dir, ScenarioFile)); err != nil {
		return fmt.Errorf("the imported scenario does not validate (a bug in sim import: please report it): %w", err)
	}
	return nil
}
