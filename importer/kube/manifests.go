package kube

import (
	"bytes"
	"fmt"
	"sort"

	"sigs.k8s.io/yaml"
)

// ManifestsDir is the folder, beside scenario.yaml, of the objects the
// scenario applies (queues.manifests).
const ManifestsDir = "manifests"

// kindFiles name the manifest file of each kind the import writes, in the
// order a reader meets them.
var kindFiles = []struct{ kind, file string }{
	{"Namespace", "namespaces.yaml"},
	{"ResourceFlavor", "resourceflavors.yaml"},
	{"Topology", "topologies.yaml"},
	{"Cohort", "cohorts.yaml"},
	{"AdmissionCheck", "admissionchecks.yaml"},
	{"ClusterQueue", "clusterqueues.yaml"},
	{"LocalQueue", "localqueues.yaml"},
	{"WorkloadPriorityClass", "workloadpriorityclasses.yaml"},
	{"HardwareProfile", "hardwareprofiles.yaml"},
	{"DataScienceCluster", "datasciencecluster.yaml"},
	{"OdhDashboardConfig", "odhdashboardconfig.yaml"},
}

// Manifests are the imported objects by kind, cleaned, with apiVersion and
// kind set.
type Manifests map[string][]map[string]any

// Add appends objects of kind. A kind without objects adds no entry: the
// scenario names manifests/ only when a file is written there.
func (m Manifests) Add(kind string, objs ...map[string]any) {
	if len(objs) == 0 {
		return
	}
	m[kind] = append(m[kind], objs...)
}

// Count is the number of objects of kind.
func (m Manifests) Count(kind string) int { return len(m[kind]) }

// Files are the manifest files' names and contents: one file per kind,
// only the non-empty ones, objects sorted by namespace and name.
func (m Manifests) Files() ([]string, map[string][]byte, error) {
	var names []string
	out := map[string][]byte{}
	for _, kf := range kindFiles {
		objs := m[kf.kind]
		if len(objs) == 0 {
			continue
		}
		sort.SliceStable(objs, func(i, j int) bool { return objKey(objs[i]) < objKey(objs[j]) })
		var buf bytes.Buffer
		for i, o := range objs {
			data, err := yaml.Marshal(o)
			if err != nil {
				return nil, nil, fmt.Errorf("writing %s: %w", kf.file, err)
			}
			if i > 0 {
				buf.WriteString("---\n")
			}
			buf.Write(data)
		}
		names = append(names, kf.file)
		out[kf.file] = buf.Bytes()
	}
	return names, out, nil
}

func objKey(o map[string]any) string {
	meta, _ := o["metadata"].(map[string]any)
	ns, _ := meta["namespace"].(string)
	name, _ := meta["name"].(string)
	return ns + "/" + name
}

// known tells whether the import writes kind.
func known(kind string) bool {
	for _, kf := range kindFiles {
		if kf.kind == kind {
			return true
		}
	}
	return false
}
