package reconciler

import (
	"context"
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	dscv1 "github.com/kueue-sim/kueue-sim/api/datasciencecluster/v1"
	kueueoperatorv1 "github.com/kueue-sim/kueue-sim/api/kueueoperator/v1"
)

// KueueCRFrameworks are the integrations of the Kueue CR the platform
// creates.
var KueueCRFrameworks = []kueueoperatorv1.Framework{
	kueueoperatorv1.FrameworkPyTorchJob,
	kueueoperatorv1.FrameworkRayJob,
	kueueoperatorv1.FrameworkRayCluster,
	kueueoperatorv1.FrameworkPod,
	kueueoperatorv1.FrameworkDeployment,
	kueueoperatorv1.FrameworkStatefulSet,
}

// operatorInstalled reports whether the Red Hat build of Kueue operator is
// installed: its Kueue CRD exists and is established.
func (r *Reconciler) operatorInstalled(ctx context.Context) (bool, error) {
	var crd apiextensionsv1.CustomResourceDefinition
	err := r.client.Get(ctx, client.ObjectKey{Name: kueueoperatorv1.CRDName}, &crd)
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("looking up CRD %s: %w", kueueoperatorv1.CRDName, err)
	}
	if crd.DeletionTimestamp != nil {
		return false, nil
	}
	for _, c := range crd.Status.Conditions {
		if c.Type == apiextensionsv1.Established {
			return c.Status == apiextensionsv1.ConditionTrue, nil
		}
	}
	return false, nil
}

// kueueCR is the Kueue CR the platform creates when absent.
func kueueCR() *kueueoperatorv1.Kueue {
	return &kueueoperatorv1.Kueue{
		ObjectMeta: metav1.ObjectMeta{Name: kueueoperatorv1.InstanceName},
		Spec: kueueoperatorv1.KueueSpec{
			ManagementState: kueueoperatorv1.Managed,
			Config: kueueoperatorv1.KueueConfiguration{
				Integrations: kueueoperatorv1.Integrations{
					Frameworks: append([]kueueoperatorv1.Framework(nil), KueueCRFrameworks...),
				},
			},
		},
	}
}

// ensureKueueCR creates the Kueue CR when absent; an existing one is never
// changed. It starts watching Kueue CRs, so that a deleted one is re-created.
func (r *Reconciler) ensureKueueCR(ctx context.Context, dsc *dscv1.DataScienceCluster) error {
	if err := r.watchKueueCRs(); err != nil {
		return err
	}
	_, err := r.createIfAbsent(ctx, dsc, kueueCR(), dscv1.Unmanaged)
	return err
}
