package webhook

import (
	admissionv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// Webhook paths on the manager's webhook server.
const (
	MutatePath   = "/kueue-sim/mutate-hardware-profile-queue"
	ValidatePath = "/kueue-sim/validate-kueue-policy"
)

// Names of the webhook configurations, their webhooks and, on a real
// cluster, the Service in front of the webhook server.
//
// The API server calls mutating webhook configurations in the order of their
// names: MutatingConfigurationName sorts before Kueue's
// ("mutating-webhook-configuration" as installed here,
// "kueue-mutating-webhook-configuration" on a cluster), so Kueue's job
// defaulting already sees the queue label a hardware profile sets.
const (
	MutatingConfigurationName   = "hardware-profile-queue.kueue-sim.io"
	ValidatingConfigurationName = "kueue-policy.kueue-sim.io"
	MutatingWebhookName         = "hardware-profile-queue.kueue-sim.io"
	ValidatingWebhookName       = "kueue-policy.kueue-sim.io"
	ServiceName                 = "kueue-sim-webhook-service"
	ServiceNamespace            = "kueue-sim-system"
)

// Configurations returns the webhook configurations of the handlers Setup
// registers, with a Service client config (envtest rewrites it to the local
// server). Both fail closed.
func Configurations() ([]*admissionv1.MutatingWebhookConfiguration, []*admissionv1.ValidatingWebhookConfiguration) {
	m := &admissionv1.MutatingWebhookConfiguration{
		TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "MutatingWebhookConfiguration"},
		ObjectMeta: configMeta(MutatingConfigurationName),
		Webhooks: []admissionv1.MutatingWebhook{{
			Name:                    MutatingWebhookName,
			ClientConfig:            clientConfig(MutatePath),
			Rules:                   rules(),
			FailurePolicy:           ptr.To(admissionv1.Fail),
			MatchPolicy:             ptr.To(admissionv1.Equivalent),
			SideEffects:             ptr.To(admissionv1.SideEffectClassNone),
			TimeoutSeconds:          ptr.To[int32](10),
			AdmissionReviewVersions: []string{"v1"},
			ReinvocationPolicy:      ptr.To(admissionv1.NeverReinvocationPolicy),
		}},
	}
	v := &admissionv1.ValidatingWebhookConfiguration{
		TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingWebhookConfiguration"},
		ObjectMeta: configMeta(ValidatingConfigurationName),
		Webhooks: []admissionv1.ValidatingWebhook{{
			Name:                    ValidatingWebhookName,
			ClientConfig:            clientConfig(ValidatePath),
			Rules:                   rules(),
			FailurePolicy:           ptr.To(admissionv1.Fail),
			MatchPolicy:             ptr.To(admissionv1.Equivalent),
			SideEffects:             ptr.To(admissionv1.SideEffectClassNone),
			TimeoutSeconds:          ptr.To[int32](10),
			AdmissionReviewVersions: []string{"v1"},
		}},
	}
	return []*admissionv1.MutatingWebhookConfiguration{m}, []*admissionv1.ValidatingWebhookConfiguration{v}
}

func configMeta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name: name,
		// On OpenShift, the service CA operator fills in the CA bundle.
		Annotations: map[string]string{"service.beta.openshift.io/inject-cabundle": "true"},
	}
}

func clientConfig(path string) admissionv1.WebhookClientConfig {
	return admissionv1.WebhookClientConfig{Service: &admissionv1.ServiceReference{
		Namespace: ServiceNamespace, Name: ServiceName, Path: ptr.To(path), Port: ptr.To[int32](443),
	}}
}

// rules covers CREATE and UPDATE of the covered kinds, one rule per group
// and version in the order of Kinds.
func rules() []admissionv1.RuleWithOperations {
	var out []admissionv1.RuleWithOperations
	index := map[string]int{}
	for _, k := range Kinds() {
		gv := k.GroupVersion().String()
		i, ok := index[gv]
		if !ok {
			i = len(out)
			index[gv] = i
			out = append(out, admissionv1.RuleWithOperations{
				Operations: []admissionv1.OperationType{admissionv1.Create, admissionv1.Update},
				Rule: admissionv1.Rule{
					APIGroups: []string{k.Group}, APIVersions: []string{k.Version},
					Scope: ptr.To(admissionv1.NamespacedScope),
				},
			})
		}
		out[i].Resources = append(out[i].Resources, k.Resource)
	}
	return out
}
