package webhook

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	admissionv1 "k8s.io/api/admission/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	infrav1 "github.com/kueue-sim/kueue-sim/api/infrastructure/v1"
)

// Setup registers the handlers on mgr's webhook server, reading facts
// through its uncached API reader. Register the configurations of
// Configurations with the API server as well (cluster.WithWebhooks).
func Setup(mgr ctrl.Manager) error {
	s := mgr.GetScheme()
	for _, gvk := range []schema.GroupVersionKind{
		dscv1.GroupVersion.WithKind("DataScienceClusterList"),
		infrav1.GroupVersion.WithKind("HardwareProfile"),
		kueue.SchemeGroupVersion.WithKind("ClusterQueue"),
	} {
		if !s.Recognizes(gvk) {
			return fmt.Errorf("setting up kueue-sim's webhooks: the manager's scheme lacks %s: build it with scheme.New (package scheme)", gvk)
		}
	}
	f := ReaderFacts{Reader: mgr.GetAPIReader()}
	srv := mgr.GetWebhookServer()
	srv.Register(MutatePath, &webhook.Admission{Handler: &Defaulter{Facts: f}})
	srv.Register(ValidatePath, &webhook.Admission{Handler: &Validator{Facts: f}})
	return nil
}

// Defaulter is the mutating handler: rule 2.
type Defaulter struct{ Facts Facts }

// Validator is the validating handler: rules 1, 3, 4 and 5.
type Validator struct{ Facts Facts }

var (
	_ admission.Handler = (*Defaulter)(nil)
	_ admission.Handler = (*Validator)(nil)
)

// Handle sets the workload's queue labels from its hardware profile.
func (d *Defaulter) Handle(ctx context.Context, req admission.Request) admission.Response {
	obj, w, old, resp := decode(req)
	if w == nil {
		return resp
	}
	warnings, errs, err := Default(ctx, d.Facts, w, old)
	if r, done := refusal(ctx, w, errs, err); done {
		return r.WithWarnings(warnings...)
	}
	if len(warnings) == 0 && equalLabels(obj.GetLabels(), w.Labels) {
		return admission.Allowed("")
	}
	obj.SetLabels(w.Labels)
	patched, err := json.Marshal(obj.Object)
	if err != nil {
		return admission.Errored(http.StatusInternalServerError, fmt.Errorf("encoding %s: %w", w, err))
	}
	return admission.PatchResponseFromRaw(req.Object.Raw, patched).WithWarnings(warnings...)
}

// Handle admits or refuses the workload.
func (v *Validator) Handle(ctx context.Context, req admission.Request) admission.Response {
	_, w, old, resp := decode(req)
	if w == nil {
		return resp
	}
	errs, err := Validate(ctx, v.Facts, w, old)
	if r, done := refusal(ctx, w, errs, err); done {
		return r
	}
	return admission.Allowed("")
}

// decode reads the request's object (and old object on UPDATE). A nil
// Workload means resp is the answer: allowed for operations and kinds the
// rules do not cover, an error for an undecodable object.
func decode(req admission.Request) (obj *unstructured.Unstructured, w, old *Workload, resp admission.Response) {
	kind, ok := KindOf(schema.GroupKind{Group: req.Kind.Group, Kind: req.Kind.Kind})
	if !ok || (req.Operation != admissionv1.Create && req.Operation != admissionv1.Update) {
		return nil, nil, nil, admission.Allowed("")
	}
	obj = &unstructured.Unstructured{}
	if err := obj.UnmarshalJSON(req.Object.Raw); err != nil {
		return nil, nil, nil, admission.Errored(http.StatusBadRequest, fmt.Errorf("decoding %s %s/%s: %w", kind.Kind, req.Namespace, req.Name, err))
	}
	if obj.GetNamespace() == "" {
		obj.SetNamespace(req.Namespace)
	}
	w = WorkloadOf(kind.Kind, obj)
	if req.Operation == admissionv1.Update && len(req.OldObject.Raw) > 0 {
		o := &unstructured.Unstructured{}
		if err := o.UnmarshalJSON(req.OldObject.Raw); err != nil {
			return nil, nil, nil, admission.Errored(http.StatusBadRequest, fmt.Errorf("decoding the old %s: %w", w, err))
		}
		if o.GetNamespace() == "" {
			o.SetNamespace(req.Namespace)
		}
		old = WorkloadOf(kind.Kind, o)
	}
	return obj, w, old, admission.Response{}
}

// refusal turns rule errors or a failed read into a refusal; done is false
// when there is neither.
func refusal(ctx context.Context, w *Workload, errs field.ErrorList, err error) (admission.Response, bool) {
	if err != nil {
		ctrl.LoggerFrom(ctx).Error(err, "checking a workload against the platform's Kueue policy", "workload", w.String())
		return admission.Errored(http.StatusInternalServerError,
			fmt.Errorf("checking %s against the platform's Kueue policy: %w", w, err)), true
	}
	if len(errs) > 0 {
		return admission.Denied(errs.ToAggregate().Error()), true
	}
	return admission.Response{}, false
}

func equalLabels(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if bv, ok := b[k]; !ok || bv != v {
			return false
		}
	}
	return true
}
