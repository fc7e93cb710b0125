package cluster

import (
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestCreatesTakenAt(t *testing.T) {
	at := func(sec int, typ apiextensionsv1.CustomResourceDefinitionConditionType, st apiextensionsv1.ConditionStatus) apiextensionsv1.CustomResourceDefinition {
		var crd apiextensionsv1.CustomResourceDefinition
		crd.Status.Conditions = []apiextensionsv1.CustomResourceDefinitionCondition{{Type: typ, Status: st,
			LastTransitionTime: metav1.NewTime(time.Unix(int64(sec), 0))}}
		return crd
	}
	crds := []apiextensionsv1.CustomResourceDefinition{
		at(100, apiextensionsv1.Established, apiextensionsv1.ConditionTrue),
		at(105, apiextensionsv1.Established, apiextensionsv1.ConditionTrue),
		at(200, apiextensionsv1.NamesAccepted, apiextensionsv1.ConditionTrue),
		at(300, apiextensionsv1.Established, apiextensionsv1.ConditionFalse),
	}
	if got, want := createsTakenAt(crds), time.Unix(107, 0); !got.Equal(want) {
		t.Errorf("createsTakenAt = %v, want %v (the latest Established transition + %s)", got, want, crdCreateHold)
	}
	if got := createsTakenAt(nil); !got.IsZero() {
		t.Errorf("createsTakenAt(no CRDs) = %v, want zero", got)
	}
}
