// Package fakes holds kueue-sim's fake operators: one small controller per
// operator that is out of the simulator's scope, each following its upstream
// project's documented status conventions and nothing more. No container
// runs: the fakes create the objects the real operator would create, the real
// kube-scheduler places the pods (the fakes never set nodeName), the fake
// kubelet (package sim/kubelet) runs them, and Kueue's own integrations
// observe the parents and finish their Workloads.
//
// The fakes never decide admission or placement. They act on what Kueue
// decided: a parent is only started once Kueue unsuspends it, its pods carry
// the node selectors and tolerations Kueue injected into its templates, and a
// parent that Kueue suspends again (preemption) loses its pods and reports
// itself suspended, so that Kueue sees it inactive.
//
//   - Notebook (kubeflow.org/v1, the OpenShift AI notebook controller): a
//     StatefulSet of the same name with one replica (none while the
//     kubeflow-resource-stopped annotation is set), the Notebook's labels
//     (so kueue.x-k8s.io/queue-name and kueue.x-k8s.io/priority-class) on the
//     StatefulSet and its pod template, the notebook-name and statefulset
//     labels on the pods; status.readyReplicas, status.containerState and
//     status.conditions mirrored from the StatefulSet and its pod. Kueue's
//     statefulset integration queues it.
//   - InferenceService (serving.kserve.io/v1beta1, KServe raw deployment
//     mode): a Deployment <name>-predictor, replicas = predictor.minReplicas
//     (default 1), its container from spec.predictor.model or
//     spec.predictor.containers[0]; conditions PredictorReady, IngressReady
//     and Ready and the url once the Deployment is Available. Kueue's
//     deployment integration queues its pods.
//   - PyTorchJob (training operator v1): once unsuspended, one pod per
//     replica named <job>-<type>-<index> with the operator's labels; the
//     conditions Created, Running, Succeeded, Failed, Suspended and
//     replicaStatuses of the operator's PyTorchJob controller.
//   - RayJob (KubeRay): once unsuspended, the pods of its RayClusterSpec
//     (head and worker groups) and, in K8sJobMode, the submitter's pod,
//     created directly instead of through a RayCluster object and a submitter
//     Job; in SidecarMode the submitter is a container of the head pod
//     (KubeRay's default submitter, 500m CPU and 200Mi) and there is no
//     submitter pod; jobDeploymentStatus Initializing, Running, then
//     Complete or Failed with jobStatus SUCCEEDED or FAILED when the job's
//     driver ends (the submitter's pod, or the head pod in SidecarMode).
//   - RayCluster (KubeRay): once unsuspended, head and worker pods, the head
//     with KubeRay's autoscaler sidecar (500m CPU and 512Mi, or
//     autoscalerOptions' resources) when enableInTreeAutoscaling is on, for
//     a RayJob's cluster too; state ready when all run; state suspended
//     once its pods are gone.
//
// Every fake makes its pods from the templates as written, role by role (a
// PyTorchJob's master and workers, a Ray cluster's head and each worker
// group): their containers, init containers, overhead, tolerations, node
// selectors and affinity reach the pods.
//
// A pod's end is driven from outside: the scenario engine calls
// Kubelet.Finish on the pods PodsOf returns once the simulated duration has
// passed; the fake then moves the parent to its finished state. Timestamps
// written into status come from an injected clock (WithClock).
//
// Where a fake departs from its upstream operator (deterministic pod names,
// no Services, no Ray dashboard), the file of that fake says so.
package fakes
