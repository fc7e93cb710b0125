package bench

import (
	"os"
	"testing"

	"github.com/go-logr/logr"
	ctrl "sigs.k8s.io/controller-runtime"
)

func TestMain(m *testing.M) {
	ctrl.SetLogger(logr.Discard())
	if childMain() {
		os.Exit(0)
	}
	os.Exit(m.Run())
}
