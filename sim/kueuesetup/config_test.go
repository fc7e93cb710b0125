package kueuesetup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/utils/ptr"

	"github.com/kueue-sim/kueue-sim/scheme"
)

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "kueue.yaml")
	if err := os.WriteFile(p, []byte("apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n"+body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadConfig(t *testing.T) {
	s, err := scheme.New()
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		path           string
		wantFrameworks []string
		wantFairShare  bool
		wantErr        []string
	}{
		"no file enables OpenShift AI's integrations": {
			wantFrameworks: DefaultFrameworks,
		},
		"file without integrations gets them too, keeping its settings": {
			path:           "fairSharing:\n  preemptionStrategies: [LessThanOrEqualToFinalShare]\n",
			wantFrameworks: DefaultFrameworks,
			wantFairShare:  true,
		},
		"file naming integrations keeps its own": {
			path:           "integrations:\n  frameworks: [batch/job]\n",
			wantFrameworks: []string{"batch/job"},
		},
		"unknown field is refused by Kueue's strict loader": {
			path:    "fairSharing:\n  enable: true\n",
			wantErr: []string{"kueue.yaml", `unknown field "fairSharing.enable"`},
		},
		"invalid value is refused with its field path": {
			path:    "integrations:\n  frameworks: [batch/job, not/a-framework]\n",
			wantErr: []string{"integrations.frameworks"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			path := ""
			if tc.path != "" {
				path = writeConfig(t, tc.path)
			}
			opts, cfg, err := LoadConfig(s, path)
			if len(tc.wantErr) > 0 {
				if err == nil {
					t.Fatal("LoadConfig accepted an invalid configuration")
				}
				for _, w := range tc.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not contain %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantFrameworks, cfg.Integrations.Frameworks); diff != "" {
				t.Errorf("frameworks (-want +got):\n%s", diff)
			}
			if got := cfg.FairSharing != nil; got != tc.wantFairShare {
				t.Errorf("fair sharing configured = %v, want %v", got, tc.wantFairShare)
			}
			if ptr.Deref(cfg.InternalCertManagement.Enable, true) || opts.LeaderElection {
				t.Error("embedded Kueue must not manage its own certificates nor elect a leader")
			}
		})
	}
}
