package cluster

import (
	"net"
	"testing"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

func TestKeepOutSystemNamespacesOnlyOnPodLevelWebhooks(t *testing.T) {
	for name, want := range map[string]bool{
		"mpod.kb.io": true, "vstatefulset.kb.io": true, "mdeployment.kb.io": true,
		"mjob.kb.io": false, "vclusterqueue.kb.io": false,
	} {
		var sel *metav1.LabelSelector
		keepOutSystemNamespaces(name, &sel)
		if got := sel != nil && len(sel.MatchExpressions) == 1 &&
			sel.MatchExpressions[0].Operator == metav1.LabelSelectorOpNotIn; got != want {
			t.Errorf("%s: namespace exclusion %v, want %v (selector %+v)", name, got, want, sel)
		}
	}
}

func TestLiveURLFindsAnotherServer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "https://" + l.Addr().String() + "/validate"
	cfg := &admissionv1.ValidatingWebhookConfiguration{Webhooks: []admissionv1.ValidatingWebhook{{
		ClientConfig: admissionv1.WebhookClientConfig{URL: ptr.To(url)},
	}}}
	if got := liveURL(cfg); got != "https://"+l.Addr().String() {
		t.Errorf("with a listener: liveURL = %q", got)
	}
	l.Close()
	if got := liveURL(cfg); got != "" {
		t.Errorf("after the listener closed: liveURL = %q, want \"\"", got)
	}
	svc := &admissionv1.MutatingWebhookConfiguration{Webhooks: []admissionv1.MutatingWebhook{{
		ClientConfig: admissionv1.WebhookClientConfig{Service: &admissionv1.ServiceReference{Name: "s", Namespace: "n"}},
	}}}
	if got := liveURL(svc); got != "" {
		t.Errorf("service reference: liveURL = %q, want \"\"", got)
	}
}
