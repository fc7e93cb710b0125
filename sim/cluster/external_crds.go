package cluster

import (
	"context"
	"fmt"
	"strings"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/kueue-sim/kueue-sim/sim/assets"
)

// installCRDs installs the embedded CRDs on an existing cluster: it creates
// the missing ones and updates those kueue-sim created before, but never
// touches a CRD someone else installed (a real OpenShift AI's, Kueue's).
// Without the Kueue operator (WithoutKueueOperator), the operator's CRD is
// removed if kueue-sim had installed it, so that to the platform the
// operator is absent, as asked.
func (cp *ControlPlane) installCRDs(ctx context.Context, o options) error {
	crds, err := assets.CRDs()
	if err != nil {
		return err
	}
	op, err := assets.KueueOperatorCRD()
	if err != nil {
		return err
	}
	if o.noKueueOperator {
		if err := cp.removeOwnCRD(ctx, op.Name); err != nil {
			return err
		}
	} else {
		crds = append(crds, op)
	}
	if crds, err = omitCRDs(crds, o.noCRDs); err != nil {
		return err
	}
	crds = append(crds, o.crds...)
	var installed []*apiextensionsv1.CustomResourceDefinition
	for _, crd := range crds {
		if o.ext.noKueue && strings.HasSuffix(crd.Name, ".kueue.x-k8s.io") {
			continue // the cluster's Kueue brings its own
		}
		crd = crd.DeepCopy()
		if crd.Labels == nil {
			crd.Labels = map[string]string{}
		}
		crd.Labels[ManagedByLabel] = ManagedByValue
		if err := cp.applyCRD(ctx, crd); err != nil {
			return err
		}
		installed = append(installed, crd)
	}
	err = envtest.WaitForCRDs(cp.Config, installed, envtest.CRDInstallOptions{
		MaxTime: time.Minute, PollInterval: 100 * time.Millisecond,
	})
	if err != nil {
		return fmt.Errorf("waiting for the CRDs to be served: %w", err)
	}
	return nil
}

func (cp *ControlPlane) applyCRD(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition) error {
	err := cp.Client.Create(ctx, crd)
	if !apierrors.IsAlreadyExists(err) {
		if err != nil {
			return fmt.Errorf("installing CRD %s: %w", crd.Name, err)
		}
		return nil
	}
	var existing apiextensionsv1.CustomResourceDefinition
	if err := cp.Client.Get(ctx, client.ObjectKeyFromObject(crd), &existing); err != nil {
		return fmt.Errorf("reading CRD %s: %w", crd.Name, err)
	}
	if existing.Labels[ManagedByLabel] != ManagedByValue {
		return nil // someone else's: theirs wins
	}
	crd.ResourceVersion = existing.ResourceVersion
	if err := cp.Client.Update(ctx, crd); err != nil {
		return fmt.Errorf("updating CRD %s: %w", crd.Name, err)
	}
	return nil
}

// removeOwnCRD deletes a CRD kueue-sim installed earlier and waits until it
// is gone.
func (cp *ControlPlane) removeOwnCRD(ctx context.Context, name string) error {
	var crd apiextensionsv1.CustomResourceDefinition
	if err := cp.Client.Get(ctx, client.ObjectKey{Name: name}, &crd); err != nil {
		return client.IgnoreNotFound(err)
	}
	if crd.Labels[ManagedByLabel] != ManagedByValue {
		return nil
	}
	if err := cp.Client.Delete(ctx, &crd); client.IgnoreNotFound(err) != nil {
		return fmt.Errorf("removing CRD %s: %w", name, err)
	}
	for deadline := time.Now().Add(time.Minute); ; {
		err := cp.Client.Get(ctx, client.ObjectKey{Name: name}, &crd)
		if apierrors.IsNotFound(err) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("removing CRD %s: still there after a minute", name)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("removing CRD %s: %w", name, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}
