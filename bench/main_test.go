//go:build integration

package bench

import (
	"os"
	"testing"

	"github.com/go-logr/logr"
	ctrl "sigs.k8s.io/controller-runtime"
)

func TestMain(m *testing.M) {
	if childMain() { // sets its own logger
		os.Exit(0)
	}
	ctrl.SetLogger(logr.Discard())
	os.Exit(m.Run())
}
