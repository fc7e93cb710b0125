package scenarios

import (
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Limits that keep a scenario within what one machine simulates, and within
// Kueue's own API limits.
const (
	// MaxStreamCount bounds the workloads of one stream.
	MaxStreamCount = 100_000
	// MaxWorkloads bounds the workloads of all streams together.
	MaxWorkloads = 200_000
	// MaxReplicas bounds the pods of one workload.
	MaxReplicas = 1_000
	// MaxSimulatedTime bounds every time and duration, in seconds (a year).
	MaxSimulatedTime = 365 * 24 * 3600
	// MaxStreamName bounds a stream's name: workload and pod names add an
	// index and a role to it and must stay within 63 characters.
	MaxStreamName = 40
	// Kueue's ClusterQueue limits.
	MaxResourceGroups     = 16
	MaxFlavorsPerGroup    = 64
	MaxResourcesPerFlavor = 64
)

// Validate checks the whole (defaulted) scenario and returns every problem
// of the scenario file, each with its field path. The problems of the
// manifests (s.Loaded) are Load's to report, with their files.
func Validate(s *Scenario) field.ErrorList {
	errs, _ := validate(s)
	return errs
}

// validate checks the scenario and the manifests it loaded: problems of
// the scenario file as field errors, problems of the manifests with their
// files.
func validate(s *Scenario) (field.ErrorList, []Problem) {
	v := newValidator(s)
	if len(s.Queues.Manifests) > 0 {
		for _, n := range []*names{v.flavors, v.cohorts, v.cqs, v.priorities, v.profiles} {
			n.where += " or in queues.manifests"
		}
	}
	var errs field.ErrorList
	errs = append(errs, v.header()...)
	errs = append(errs, v.cluster(field.NewPath("cluster"))...)
	v.manifestNames()
	errs = append(errs, v.queues(field.NewPath("queues"))...)
	v.manifestQueues()
	errs = append(errs, v.teamList(field.NewPath("teams"))...)
	v.manifestNamespaced()
	errs = append(errs, v.profileList(field.NewPath("queues", "hardwareProfiles"))...)
	errs = append(errs, v.streamList(field.NewPath("workloads"))...)
	errs = append(errs, v.streamPlacement(field.NewPath("workloads"))...)
	errs = append(errs, v.expectations(field.NewPath("expectations"))...)
	errs = append(errs, v.changes(field.NewPath("changes"))...)
	return errs, v.mprobs
}

// validator holds the names declared so far: references are checked
// against them.
type validator struct {
	s          *Scenario
	flavors    *names
	cohorts    *names
	cqs        *names
	priorities *names
	profiles   *names
	teams      *names
	streams    *names
	// teamByName and profileByName are the first team and profile of
	// each name.
	teamByName    map[string]*Team
	profileByName map[string]*HardwareProfile
	// localQueues are the LocalQueue names of each namespace.
	localQueues map[string]*names
	// cqCohorts are the cohorts ClusterQueues name.
	cqCohorts map[string]bool
	// streamCount is each stream's count.
	streamCount map[string]int32
	// namespaces are the Namespaces of the manifests.
	namespaces map[string]bool
	// mprobs are the problems found in the manifests and template files.
	mprobs []Problem
	// templatesChecked are the template objects whose pods are checked.
	templatesChecked map[client.Object]bool
}

func newValidator(s *Scenario) *validator {
	return &validator{s: s,
		flavors:       newNames("ResourceFlavor", "queues.resourceFlavors", "{name: a100, nodeLabels: {nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB}}"),
		cohorts:       newNames("cohort", "queues.cohorts", "{name: org}"),
		cqs:           newNames("ClusterQueue", "queues.clusterQueues", "{name: research, resourceGroups: [...]}"),
		priorities:    newNames("priority class", "queues.priorityClasses", "{name: high, value: 1000}"),
		profiles:      newNames("hardware profile", "queues.hardwareProfiles", "{name: a100-large, localQueue: gpu}"),
		teams:         newNames("team", "teams", "{name: research, localQueues: [{name: gpu, clusterQueue: research}]}"),
		streams:       newNames("stream", "workloads", "{name: train, team: research, kind: Job, requests: {cpu: \"1\"}}"),
		teamByName:    map[string]*Team{},
		profileByName: map[string]*HardwareProfile{},
		localQueues:   map[string]*names{},
		cqCohorts:     map[string]bool{},
		streamCount:   map[string]int32{},
		namespaces:    map[string]bool{},

		templatesChecked: map[client.Object]bool{},
	}
}

func (v *validator) header() field.ErrorList {
	var errs field.ErrorList
	switch v.s.APIVersion {
	case APIVersion:
	case "":
		errs = append(errs, field.Required(field.NewPath("apiVersion"), "start the file with apiVersion: "+APIVersion))
	default:
		errs = append(errs, field.Invalid(field.NewPath("apiVersion"), v.s.APIVersion, "must be "+APIVersion+" (the version of kueue-sim's scenario format)"))
	}
	switch v.s.Kind {
	case Kind:
	case "":
		errs = append(errs, field.Required(field.NewPath("kind"), "add kind: "+Kind))
	default:
		errs = append(errs, field.Invalid(field.NewPath("kind"), v.s.Kind, "must be "+Kind))
	}
	if v.s.End != nil {
		errs = append(errs, positiveDuration(field.NewPath("end"), v.s.End)...)
	}
	return errs
}
