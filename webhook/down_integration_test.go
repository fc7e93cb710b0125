//go:build integration

package webhook_test

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	"sigs.k8s.io/controller-runtime/pkg/client"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	"github.com/kueue-sim/kueue-sim/sim/cluster/clustertest"
	"github.com/kueue-sim/kueue-sim/webhook"
)

// closedPort returns a local address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return addr
}

// unreachable points a client config at addr, where nothing listens.
func unreachable(cc *admissionv1.WebhookClientConfig, addr string) {
	url := fmt.Sprintf("https://%s%s", addr, *cc.Service.Path)
	*cc = admissionv1.WebhookClientConfig{URL: &url}
}

func TestWebhookDownRefusesAffectedObjects(t *testing.T) {
	ctx := context.Background()
	kueueState(t, dscv1.Unmanaged)
	// Nothing in this namespace breaks a rule: only the unreachable handler
	// can refuse.
	sel := map[string]string{"kueue-sim.io/webhook-down-test": "true"}
	ns := clustertest.Namespace(t, cp.Client, sel)
	addr := closedPort(t)
	muts, vals := webhook.Configurations()
	m, v := muts[0], vals[0]
	m.Name, v.Name = "down-"+m.Name, "down-"+v.Name
	unreachable(&m.Webhooks[0].ClientConfig, addr)
	m.Webhooks[0].NamespaceSelector = &metav1.LabelSelector{MatchLabels: sel}
	unreachable(&v.Webhooks[0].ClientConfig, addr)
	v.Webhooks[0].NamespaceSelector = &metav1.LabelSelector{MatchLabels: sel}

	for _, tc := range []struct {
		name   string
		config client.Object
		hook   string
	}{
		{"mutating", m, m.Webhooks[0].Name},
		{"validating", v, v.Webhooks[0].Name},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if *m.Webhooks[0].FailurePolicy != admissionv1.Fail || *v.Webhooks[0].FailurePolicy != admissionv1.Fail {
				t.Fatal("our configurations must fail closed")
			}
			clustertest.Create(t, cp.Client, tc.config)
			t.Cleanup(func() {
				if err := cp.Client.Delete(ctx, tc.config); err != nil {
					t.Errorf("deleting %s: %v", tc.config.GetName(), err)
				}
			})
			// The API server picks up a configuration change within moments:
			// until then a Notebook may be admitted (delete it and retry), or
			// refused by the previous subtest's configuration.
			want := `failed calling webhook "` + tc.hook + `"`
			clustertest.Eventually(t, 15*time.Second, func(ctx context.Context) error {
				name := "nb-" + rand.String(5)
				obj, err := create(webhook.Notebook, ns, name, map[string]string{webhook.QueueLabel: "team"}, nil)
				switch {
				case err == nil:
					_ = cp.Client.Delete(ctx, obj)
					return fmt.Errorf("a Notebook was admitted while %s is unreachable", tc.hook)
				case !strings.Contains(err.Error(), want):
					return fmt.Errorf("refused, but not by the unreachable %s: %w", tc.hook, err)
				}
				t.Logf("refused: %v", err)
				absent(t, webhook.Notebook, ns, name)
				return nil
			})
		})
	}
}
