// Package kube writes kueue-sim scenarios from Kubernetes: a live cluster
// read with list calls only (sim import cluster) or saved dumps of Kueue
// Workloads (sim import workloads). Both write a folder:
//
//	DIR/scenario.yaml      cluster.nodePools, queues.manifests: [manifests],
//	                       teams {name, namespace}, the replayed streams
//	DIR/manifests/         one file per kind: namespaces.yaml,
//	                       resourceflavors.yaml, topologies.yaml, cohorts.yaml,
//	                       admissionchecks.yaml, clusterqueues.yaml,
//	                       localqueues.yaml, workloadpriorityclasses.yaml,
//	                       hardwareprofiles.yaml, datasciencecluster.yaml,
//	                       odhdashboardconfig.yaml (only the non-empty ones)
//	DIR/templates/         the Workloads' owners' manifests the streams name
//	                       as their template, one file per distinct spec
//	DIR/kueue-config.yaml  the Kueue manager's configuration, when read
//
// Objects are written in kueue.x-k8s.io/v1beta2 (v1beta1 ones converted
// with Kueue's own conversions) with apiVersion and kind, without status,
// uid, resourceVersion, creationTimestamp, generation, managedFields,
// ownerReferences, finalizers and kubectl's last-applied annotation. Output
// is deterministic: files, objects and streams are sorted.
//
// # Workloads to streams
//
// Every Workload with a queue name is one arrival:
//
//   - arrival: its creationTimestamp, relative to the earliest replayed
//     (sim import cluster: not before now − --since; older workloads still
//     running or pending arrive at 0, older finished ones are left out);
//   - run time: from its last Admitted (else QuotaReserved) condition to its
//     Finished condition, in whole seconds, at least 1 (admitted before the
//     window: from the window's start). A workload still running at the
//     import has none: it goes to a stream of its own (name …-running-N)
//     without durations, whose workloads run until the scenario ends and so
//     hold their quota as they do in the cluster. A workload that never ran
//     (pending at the import, or evicted and not readmitted) still arrives
//     and runs for the median run time of its stream's finished workloads
//     (of all finished workloads when its stream has none; DefaultDuration
//     when none finished). A workload that finished without being admitted
//     (deactivated or ended while pending) is left out: nothing replays "never
//     admitted". Each choice is counted in the scenario's notes;
//   - kind, from the owner: batch Job → Job; kubeflow.org PyTorchJob →
//     PyTorchJob (pod sets master of 1 and worker alike); ray.io RayJob and
//     RayCluster → RayJob, RayCluster (head of 1 and one worker group alike;
//     a RayJob's submitter pod set is left out, the replay adds its own);
//     apps StatefulSet of one pod → Notebook (OpenShift AI runs notebooks so);
//     a Pod named …-predictor-… or labelled serving.kserve.io/inferenceservice
//     → InferenceService of one replica (Kueue queues a Deployment's pods one
//     by one). Any other owner, none, or pod sets that do not fit the kind
//     (several shapes, several worker groups) → a raw Workload of one pod
//     asking for the sum of all pod sets: Kueue sees the same quota, no pods
//     run;
//   - replicas and requests: the pods' count and one pod's requests
//     (containers added up, limits where a request is missing, the largest
//     init container when larger, sidecars and overhead included);
//   - queue: spec.queueName; priority class: spec.priorityClassRef when it
//     is a WorkloadPriorityClass (a pod PriorityClass is not replayed: noted).
//
// Arrivals of the same namespace, queue, kind, priority class, replicas and
// requests, or template (and running or not) form one stream, arrival.at
// and durations in arrival order. Streams are named <namespace>-<queue>-<kind>-N (the queue
// left out when it is the namespace's name; shortened to fit), team = the
// namespace.
//
// # Owners' manifests
//
// A Workload whose owner the import read (sim import cluster; sim import
// workloads --owners) replays the owner's manifest instead: its stream
// names it as its template (scenarios.Template), and kind, replicas and
// requests are the object's. The owner is the Workload's controller owner
// reference of a kind in ownerTypes (batch/v1 Job, kubeflow.org/v1
// PyTorchJob and Notebook, ray.io/v1 RayJob and RayCluster,
// serving.kserve.io/v1beta1 InferenceService), matched by namespace, name
// and uid (another uid: created again since, gone); a Notebook through its
// StatefulSet (the pods' notebook-name label, else the StatefulSet's
// name), an InferenceService through a predictor pod (its
// serving.kserve.io/inferenceservice label, else the pod's name before
// -predictor-), by name. An InferenceService's Workloads, one per
// predictor pod, replay as one arrival (foldOwners).
//
// The template is the owner cleaned (cleanOwner): apiVersion, kind,
// labels, annotations and spec, without status, name, namespace and the
// cluster's metadata, Kueue's labels and annotations but the knobs a user
// sets (kueueKnobs), kueue-sim's own, what Kueue sets to run the object
// (spec.suspend, a MultiKueue managedBy, a partially admitted Job's
// parallelism) and the labels, annotations, node selector, tolerations and
// scheduling gates it injects into the pod templates at admission
// (restored from the Workload's pod sets, as Kueue restores them), a Job's
// generated selector and controller-uid labels; with Redact, the
// containers' env, envFrom, command and args and a RayJob's entrypoint and
// runtimeEnvYAML. Equal templates are one file,
// templates/<namespace>-<kind>-<name>.yaml after the first owner by
// namespace and name. A template the scenario loader would refuse is not
// written: its Workloads are rebuilt from their pod sets, with a note.
// OwnerSummary counts how many Workloads replay their owner's manifest and
// why the others are rebuilt (owner gone, of no kind read, kind not served
// or forbidden, manifest refused): the top comment and the command's
// output say it.
//
// # Cluster import
//
// FromCluster lists, through a controller-runtime client.Reader and with
// no other call:
//
//   - Nodes, grouped into node pools by the GPU product label
//     (nvidia.com/gpu.product), the labels the ResourceFlavors' nodeLabels
//     and the Topologies' levels name, allocatable (non-zero) and taints
//     (the node lifecycle's and autoscalers' taints left out); cordoned
//     nodes are left out. Pools are named after the kueue-sim pool label,
//     else the GPU product, else cpu;
//   - Kueue's ResourceFlavors, Topologies, Cohorts, AdmissionChecks,
//     ClusterQueues, LocalQueues and WorkloadPriorityClasses (v1beta2, or
//     v1beta1 when the cluster serves no v1beta2), and OpenShift AI's
//     HardwareProfiles, DataScienceClusters and OdhDashboardConfigs;
//   - Namespaces: the Kueue-managed ones (kueue.openshift.io/managed or
//     kueue-managed label) and those the objects and workloads live in, with
//     their labels. A namespace with LocalQueues or workloads is a team,
//     unmanaged unless labelled kueue.openshift.io/managed=true;
//   - ConfigMaps in kueue-system (then openshift-kueue-operator), for
//     kueue-manager-config's controller_manager_config.yaml, written to
//     kueue-config.yaml and named by cluster.kueueConfig. Secrets, pods and
//     logs are never read;
//   - Workloads, as above;
//   - the Workloads' owners, per owner kind, in each namespace whose
//     replayed Workloads name an owner of that kind. A kind not served is
//     skipped quietly, a forbidden list is a note (those Workloads are
//     rebuilt from their pod sets): neither makes the import incomplete;
//   - Deployments (of every namespace, else of kueue-system and
//     openshift-kueue-operator), for the Kueue release the cluster runs
//     (DetectKueue): the image tag of Kueue's controller-manager, else its
//     Helm app.kubernetes.io/version label; for the Red Hat build of
//     Kueue, whose images carry digests only, the Kueue minor of the
//     release its operator's OLM owner (kueue-operator.vX.Y.Z) names.
//     cluster.kueueVersion names a release kueue-sim replays (a minor: its
//     newest supported release); for any other, a comment in the field's
//     place names the nearest supported release (of the same minor, else
//     of the nearest minor, the newer of two as near), and the import warns.
//     An unknown release, or Deployments that may not be listed, is a
//     warning (Warnings), never an incomplete scenario.
//
// A kind the cluster does not serve (no CRD) is skipped with a note. A
// forbidden list is recorded ("forbidden: list clusterqueues.kueue.x-k8s.io:
// …"), the import goes on, and the scenario is marked incomplete: its
// description starts with IncompletePrefix and its top comment lists what is
// missing. When nodes cannot be listed the node pools are inferred from the
// workloads, one per ResourceFlavor read. Other errors stop the import. sim
// import cluster then exits 0 and repeats the missing lists on stderr.
//
// # Workload dumps
//
// FromWorkloadFiles reads kubectl's List (kind List or WorkloadList), single
// Workloads and multi-document YAML, or JSON, in kueue.x-k8s.io v1beta1
// (converted) or v1beta2. Bad input is an *InputError naming the file, the
// line and the document, and how to make a good dump. Owners (--owners)
// are read from files of the same forms; objects of other kinds there are
// left out, with a note.
//
// With --cluster SCENARIO the scenario's cluster (node pools, Kueue
// configuration), queues (its own schema and manifests, relative paths
// rewritten to resolve from the new folder) and teams are used; streams go
// to the team of their namespace (a namespace without one gets a team of
// its name). With --cluster DIR (a folder of manifests; a folder with a
// scenario.yaml is taken as that scenario) the folder is copied into
// manifests/ and one node pool is inferred per ResourceFlavor, with its node
// labels and taints.
//
// Without --cluster the rest is inferred, and the description starts with
// InferredPrefix (Marks tells): one ResourceFlavor "default"; one Cohort
// "imported"; one ClusterQueue per ClusterQueue the workloads'
// status.admission names (a LocalQueue whose workloads name none gets
// <namespace>-<queue>), in the cohort, with nominal quota on "default" equal
// to the peak of what its workloads held at once (each resource's own peak
// over the admitted intervals, running ones up to the latest time in the
// dump; at least the largest single workload, so that every one can be
// admitted); the LocalQueues; a WorkloadPriorityClass per class named, with
// the value most of its workloads carried. No preemption is configured.
//
// # What the import adds
//
// The written scenario always loads (Write loads it back with the scenario
// loader and returns "the imported scenario does not validate (a bug in sim
// import: ...)" otherwise). What the streams and objects name and the
// cluster, or --cluster, lacks is added, listed in Added, said in the
// description (as inferred) and the top comment: a Namespace for each
// namespaced object outside the teams' namespaces and the Namespaces read;
// a LocalQueue in a Queue HardwareProfile's namespace named as its
// localQueueName; a LocalQueue for each queue the workloads name (to the
// ClusterQueue their status.admission names, else <namespace>-<queue>); a
// ClusterQueue, inferred as above, for each one a LocalQueue names and
// nobody declares (ClusterQueues forbidden to list, or dangling in the
// cluster), with the ResourceFlavor "default" and the Cohort "imported"
// when missing; a WorkloadPriorityClass for each class named, with the
// value its workloads carried; with --cluster SCENARIO, a team for each
// namespace without one. Beside a copied --cluster folder the added
// manifests go to manifests/added/.
//
// An inferred node pool covers the peak concurrent demand on its flavor:
// nodes of 64 CPUs and 512Gi (and 8 nvidia.com/gpu when GPUs are asked for),
// each raised to the largest pod's request, as many as the most demanding of
// those resources needs (at least one), other resources spread over them.
// It is sized by quota, not by bin-packing: pods of a replay may wait for
// room that Kueue's quota already granted.
package kube
