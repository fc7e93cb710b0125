package fakes

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// KServe's InferenceService condition types (raw deployment mode).
const (
	condPredictorReady = "PredictorReady"
	condIngressReady   = "IngressReady"
	condReady          = "Ready"
)

// isvcStatus is the part of KServe's InferenceServiceStatus the fake
// writes. Conditions are Knative conditions.
type isvcStatus struct {
	ObservedGeneration int64                      `json:"observedGeneration,omitempty"`
	Conditions         []knCondition              `json:"conditions,omitempty"`
	Address            *addressable               `json:"address,omitempty"`
	URL                string                     `json:"url,omitempty"`
	Components         map[string]componentStatus `json:"components,omitempty"`
	ModelStatus        modelStatus                `json:"modelStatus"`
	DeploymentMode     string                     `json:"deploymentMode,omitempty"`
}

type knCondition struct {
	Type               string                 `json:"type"`
	Status             corev1.ConditionStatus `json:"status"`
	Severity           string                 `json:"severity,omitempty"`
	LastTransitionTime metav1.Time            `json:"lastTransitionTime,omitempty"`
	Reason             string                 `json:"reason,omitempty"`
	Message            string                 `json:"message,omitempty"`
}

type addressable struct {
	URL string `json:"url,omitempty"`
}

type componentStatus struct {
	URL     string       `json:"url,omitempty"`
	Address *addressable `json:"address,omitempty"`
}

type modelStatus struct {
	TransitionStatus string       `json:"transitionStatus"`
	States           *modelStates `json:"states,omitempty"`
	Copies           *modelCopies `json:"copies,omitempty"`
}

type modelStates struct {
	ActiveModelState string `json:"activeModelState"`
	TargetModelState string `json:"targetModelState,omitempty"`
}

type modelCopies struct {
	FailedCopies int `json:"failedCopies"`
	TotalCopies  int `json:"totalCopies,omitempty"`
}

// isvcStatusOf is an InferenceService's status given its predictor
// Deployment, by KServe's PropagateRawStatus and PropagateModelStatus:
// PredictorReady follows the Deployment's Available, Progressing and
// ReplicaFailure conditions; IngressReady is true (the fake serves inside
// the cluster); Ready is true when both are, false when one is false,
// unknown otherwise. Transition times change only with a condition's status.
func isvcStatusOf(name, ns string, generation int64, dep *appsv1.Deployment, old isvcStatus, now metav1.Time) isvcStatus {
	pred := predictorCondition(dep)
	ingress := knCondition{Type: condIngressReady, Status: corev1.ConditionTrue}
	readyCond := knCondition{Type: condReady, Status: corev1.ConditionTrue}
	switch {
	case pred.Status == corev1.ConditionFalse:
		readyCond = knCondition{Type: condReady, Status: corev1.ConditionFalse, Reason: pred.Reason, Message: pred.Message}
	case pred.Status != corev1.ConditionTrue:
		readyCond = knCondition{Type: condReady, Status: corev1.ConditionUnknown, Reason: pred.Reason, Message: pred.Message}
	}
	st := isvcStatus{
		ObservedGeneration: generation,
		DeploymentMode:     rawDeploymentMode,
		Components:         map[string]componentStatus{predictorComponent: {}},
	}
	for _, c := range []knCondition{ingress, pred, readyCond} {
		c.LastTransitionTime = now
		for _, o := range old.Conditions {
			if o.Type == c.Type && o.Status == c.Status {
				c.LastTransitionTime = o.LastTransitionTime
			}
		}
		st.Conditions = append(st.Conditions, c)
	}

	readyCopies := int(dep.Status.ReadyReplicas)
	st.ModelStatus = modelStatus{TransitionStatus: "InProgress", States: &modelStates{ActiveModelState: "Pending", TargetModelState: "Pending"}, Copies: &modelCopies{TotalCopies: readyCopies}}
	if old.ModelStatus.States != nil && old.ModelStatus.States.ActiveModelState != "" {
		st.ModelStatus.States.ActiveModelState = old.ModelStatus.States.ActiveModelState
	}
	if readyCond.Status == corev1.ConditionTrue {
		url := fmt.Sprintf("http://%s.%s.svc.cluster.local", predictorName(name), ns)
		st.URL, st.Address = url, &addressable{URL: url}
		st.Components[predictorComponent] = componentStatus{URL: url, Address: &addressable{URL: url}}
		st.ModelStatus = modelStatus{TransitionStatus: "UpToDate", States: &modelStates{ActiveModelState: "Loaded", TargetModelState: "Loaded"}, Copies: &modelCopies{TotalCopies: readyCopies}}
	}
	return st
}

// predictorCondition is KServe's PropagateRawStatus for one Deployment.
func predictorCondition(dep *appsv1.Deployment) knCondition {
	c := knCondition{Type: condPredictorReady, Status: corev1.ConditionFalse}
	find := func(t appsv1.DeploymentConditionType) *appsv1.DeploymentCondition {
		for i := range dep.Status.Conditions {
			if dep.Status.Conditions[i].Type == t {
				return &dep.Status.Conditions[i]
			}
		}
		return nil
	}
	avail := find(appsv1.DeploymentAvailable)
	if avail != nil && avail.Status == corev1.ConditionTrue {
		c.Status = corev1.ConditionTrue
	}
	if prog := find(appsv1.DeploymentProgressing); prog != nil {
		switch {
		case prog.Status == corev1.ConditionFalse && prog.Message != "":
			c = knCondition{Type: condPredictorReady, Status: corev1.ConditionFalse, Reason: prog.Reason, Message: prog.Message}
		case prog.Status == corev1.ConditionTrue && prog.Reason == "NewReplicaSetAvailable":
			c = knCondition{Type: condPredictorReady, Status: corev1.ConditionTrue}
		case prog.Status == corev1.ConditionTrue:
			c = knCondition{Type: condPredictorReady, Status: corev1.ConditionUnknown, Reason: prog.Reason, Message: prog.Message}
		}
	}
	if avail != nil && avail.Status == corev1.ConditionFalse {
		c = knCondition{Type: condPredictorReady, Status: corev1.ConditionFalse, Reason: avail.Reason, Message: avail.Message}
	}
	if rf := find(appsv1.DeploymentReplicaFailure); rf != nil && rf.Status == corev1.ConditionTrue {
		c = knCondition{Type: condPredictorReady, Status: corev1.ConditionFalse, Reason: rf.Reason, Message: rf.Message}
	}
	return c
}
