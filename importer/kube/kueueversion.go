package kube

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
)

// Kueue's manifests (config/default's kustomization and the Helm chart's
// selector labels) label the controller-manager Deployment and its pods
// app.kubernetes.io/name=kueue and control-plane=controller-manager, and
// name its container manager. The Red Hat build of Kueue operator's
// operand Deployment carries the same labels. The Helm chart also labels
// the Deployment app.kubernetes.io/version with its appVersion (v0.17.1).
const (
	kueueNameLabel     = "app.kubernetes.io/name"
	kueueNameValue     = "kueue"
	controlPlaneLabel  = "control-plane"
	controlPlaneValue  = "controller-manager"
	appVersionLabel    = "app.kubernetes.io/version"
	kueueContainerName = "manager"
)

// olmOwnerLabel names, on a Deployment OLM installs, the
// ClusterServiceVersion that owns it: kueue-operator.v1.4.1 for the Red
// Hat build of Kueue operator.
const olmOwnerLabel = "olm.owner"

// redHatCSV is the Red Hat build of Kueue operator's ClusterServiceVersion
// name; its release is the product's.
var redHatCSV = regexp.MustCompile(`^kueue-operator\.v([0-9]+\.[0-9]+\.[0-9]+)$`)

// redHatKueue maps a Red Hat build of Kueue minor to the Kueue minor its
// operand is built from: each release-1.N branch of
// github.com/openshift/kueue-operator pins its Kueue submodule to a
// release-0.M branch of Kueue, not to a release, so only the minor is
// known. Its images are tagged by digest and labelled with the product's
// release, which the API does not show: the operator Deployment's OLM
// owner names it.
var redHatKueue = map[string]string{
	"1.0": "v0.11",
	"1.1": "v0.12",
	"1.2": "v0.14",
	"1.3": "v0.16",
	"1.4": "v0.18",
}

// redHatImage is the repository of the Red Hat build of Kueue's operand
// (registry.redhat.io/kueue/kueue-rhel9); the operator's is
// kueue-rhel9-operator.
var redHatImage = regexp.MustCompile(`^kueue-rhel[0-9]+$`)

// releaseTag is a Kueue release as an image tag or label: v0.17.1 (the v
// optional, a pre-release suffix kept).
var releaseTag = regexp.MustCompile(`^v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$`)

// ClusterKueue is the Kueue a cluster runs, as its Deployments tell.
type ClusterKueue struct {
	// Version is the Kueue release (v0.17.1), or its minor (v0.18) when
	// the build names no release; "" when unknown.
	Version string
	// Build names a downstream build of Kueue: "the Red Hat build of
	// Kueue 1.4.1".
	Build string
	// Source says where Version was read: "the image
	// registry.k8s.io/kueue/kueue:v0.17.1 of Deployment
	// kueue-system/kueue-controller-manager".
	Source string
	// Unknown says why Version is "", when it is.
	Unknown string
}

// What is the version as a sentence names it: "v0.17.1", or "v0.18 (the
// Red Hat build of Kueue 1.4.1)".
func (k ClusterKueue) What() string {
	if k.Build == "" {
		return k.Version
	}
	return k.Version + " (" + k.Build + ")"
}

// DetectKueue tells which Kueue the cluster runs from its Deployments:
// the tag of the image of Kueue's controller-manager (the Deployment
// labelled as Kueue's manifests label it, else any Deployment with a
// container image …/kueue:vX.Y.Z), else its Helm app.kubernetes.io/version
// label; for the Red Hat build of Kueue (image …/kueue-rhel9@sha256:…),
// the Kueue minor of the product release its operator's OLM owner names.
func DetectKueue(deps []appsv1.Deployment) ClusterKueue {
	d, c := kueueManager(deps)
	if d == nil {
		return ClusterKueue{Unknown: fmt.Sprintf("no Deployment runs Kueue's controller-manager (labelled %s=%s and %s=%s, or with an image …/kueue:vX.Y.Z)",
			kueueNameLabel, kueueNameValue, controlPlaneLabel, controlPlaneValue)}
	}
	of := fmt.Sprintf("Deployment %s/%s", d.Namespace, d.Name)
	repo, tag, _ := imageRef(c.Image)
	if v, ok := release(tag); ok {
		return ClusterKueue{Version: v, Source: fmt.Sprintf("the image %s of %s", c.Image, of)}
	}
	for _, labels := range []map[string]string{d.Labels, d.Spec.Template.Labels} {
		if v, ok := release(labels[appVersionLabel]); ok {
			return ClusterKueue{Version: v, Source: fmt.Sprintf("the %s label of %s", appVersionLabel, of)}
		}
	}
	if redHatImage.MatchString(path.Base(repo)) {
		return redHatKueueOf(deps, d, c.Image)
	}
	return ClusterKueue{Unknown: fmt.Sprintf("the image %s of %s names no Kueue release", c.Image, of)}
}

// redHatKueueOf is the Kueue of the Red Hat build whose operand d runs
// image: the minor its operator's release is built from.
func redHatKueueOf(deps []appsv1.Deployment, d *appsv1.Deployment, image string) ClusterKueue {
	product, owner := "", ""
	// The operator runs beside its operand; look there first.
	for _, sameNamespace := range []bool{true, false} {
		for _, i := range sortedDeployments(deps) {
			o := &deps[i]
			if (o.Namespace == d.Namespace) != sameNamespace {
				continue
			}
			if p, csv := redHatRelease(o); p != "" {
				product, owner = p, fmt.Sprintf("the OLM owner %s of Deployment %s/%s", csv, o.Namespace, o.Name)
				break
			}
		}
		if product != "" {
			break
		}
	}
	of := fmt.Sprintf("Deployment %s/%s", d.Namespace, d.Name)
	if product == "" {
		return ClusterKueue{Unknown: fmt.Sprintf("%s runs the Red Hat build of Kueue (%s) and no Deployment's OLM owner names its release", of, image)}
	}
	build := "the Red Hat build of Kueue " + product
	minor, ok := redHatKueue[kueuerelease.Minor(product)]
	if !ok {
		return ClusterKueue{Build: build, Unknown: fmt.Sprintf("%s runs %s (%s), whose Kueue release kueue-sim does not know", of, build, owner)}
	}
	return ClusterKueue{Version: minor, Build: build, Source: owner}
}

// redHatRelease is the Red Hat build of Kueue release whose operator d
// runs, from the ClusterServiceVersion that owns it (its OLM owner label
// or owner reference), and that CSV's name; "" when d is not that
// operator.
func redHatRelease(d *appsv1.Deployment) (release, csv string) {
	names := []string{d.Labels[olmOwnerLabel]}
	for _, o := range d.OwnerReferences {
		if o.Kind == "ClusterServiceVersion" {
			names = append(names, o.Name)
		}
	}
	for _, n := range names {
		if m := redHatCSV.FindStringSubmatch(n); m != nil {
			return m[1], n
		}
	}
	return "", ""
}

// kueueManager is the Deployment of Kueue's controller-manager and its
// container: the first, by namespace and name, labelled as Kueue's
// manifests label it, with a container named manager or running a Kueue
// image; else the first with a container running an image …/kueue tagged
// with a release. nil when none.
func kueueManager(deps []appsv1.Deployment) (*appsv1.Deployment, *corev1.Container) {
	order := sortedDeployments(deps)
	for _, i := range order {
		d := &deps[i]
		if !kueueLabelled(d.Labels) && !kueueLabelled(d.Spec.Template.Labels) {
			continue
		}
		cs := d.Spec.Template.Spec.Containers
		for j := range cs {
			if cs[j].Name == kueueContainerName {
				return d, &cs[j]
			}
		}
		for j := range cs {
			if kueueImage(cs[j].Image) {
				return d, &cs[j]
			}
		}
	}
	for _, i := range order {
		d := &deps[i]
		cs := d.Spec.Template.Spec.Containers
		for j := range cs {
			repo, tag, _ := imageRef(cs[j].Image)
			if _, ok := release(tag); ok && path.Base(repo) == "kueue" {
				return d, &cs[j]
			}
		}
	}
	return nil, nil
}

func kueueLabelled(l map[string]string) bool {
	return l[kueueNameLabel] == kueueNameValue && l[controlPlaneLabel] == controlPlaneValue
}

// kueueImage tells whether image is Kueue's (…/kueue) or the Red Hat
// build's operand (…/kueue-rhel9).
func kueueImage(image string) bool {
	repo, _, _ := imageRef(image)
	base := path.Base(repo)
	return base == "kueue" || redHatImage.MatchString(base)
}

// sortedDeployments are the indexes of deps by namespace, then name: the
// choice among several does not depend on the order the API lists them in.
func sortedDeployments(deps []appsv1.Deployment) []int {
	order := make([]int, len(deps))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		da, db := &deps[order[a]], &deps[order[b]]
		if da.Namespace != db.Namespace {
			return da.Namespace < db.Namespace
		}
		return da.Name < db.Name
	})
	return order
}

// imageRef splits an image reference into its repository (registry and
// path), tag and digest; tag and digest may be "".
func imageRef(image string) (repo, tag, digest string) {
	if i := strings.Index(image, "@"); i >= 0 {
		image, digest = image[:i], image[i+1:]
	}
	// A tag follows the last colon after the last slash: a colon before
	// it is a registry's port.
	if i := strings.LastIndex(image, ":"); i > strings.LastIndex(image, "/") {
		image, tag = image[:i], image[i+1:]
	}
	return image, tag, digest
}

// release is s as a Kueue release with its leading v, when it is one.
func release(s string) (string, bool) {
	if !releaseTag.MatchString(s) {
		return "", false
	}
	return "v" + strings.TrimPrefix(s, "v"), true
}

// kueuePin is what an import records of the cluster's Kueue.
type kueuePin struct {
	// Field is cluster.kueueVersion: the release, or minor, detected when
	// kueue-sim replays it.
	Field string
	// Comment stands at cluster.kueueVersion's place when kueue-sim does
	// not replay the release detected: the nearest it does.
	Comment string
	// Note and Warning are for the import's summary.
	Note, Warning string
}

// pinKueue decides what the scenario says of k: the field when kueue-sim
// replays exactly that release (or, for a minor, any release of it), else
// a comment naming the nearest supported release; a warning when the
// release is not replayed or not known.
func pinKueue(k ClusterKueue) kueuePin {
	if k.Version == "" {
		return kueuePin{Warning: fmt.Sprintf("the cluster's Kueue release is unknown (%s): the scenario runs the sim's own Kueue; set cluster.kueueVersion to pin another", k.Unknown)}
	}
	if strings.Count(k.Version, ".") == 1 {
		if r, ok := kueuerelease.Resolve(k.Version); ok {
			return kueuePin{Field: k.Version, Note: fmt.Sprintf("Kueue %s from %s: cluster.kueueVersion %s replays it with %s, the newest supported release of that minor",
				k.What(), k.Source, k.Version, r)}
		}
	} else {
		for _, r := range kueuerelease.Supported {
			if r == k.Version {
				return kueuePin{Field: k.Version, Note: fmt.Sprintf("Kueue %s from %s: cluster.kueueVersion pins it", k.What(), k.Source)}
			}
		}
	}
	near := nearestRelease(k.Version)
	return kueuePin{
		Comment: fmt.Sprintf("The cluster runs Kueue %s, which kueue-sim does not replay; the nearest supported release is %s (set cluster.kueueVersion to pin it).", k.What(), near),
		Warning: fmt.Sprintf("the cluster runs Kueue %s (from %s), which kueue-sim does not replay: the scenario runs the sim's own Kueue; a comment at cluster.kueueVersion names the nearest supported release, %s",
			k.What(), k.Source, near),
	}
}

// nearestRelease is the supported release nearest version (a release or a
// minor): the newest of its minor, else the newest of the nearest minor;
// of two minors as near, the newer, since a newer Kueue serves every field
// the cluster's objects carry and an older one may refuse some.
func nearestRelease(version string) string {
	if r, ok := kueuerelease.Resolve(kueuerelease.Minor(version)); ok {
		return r
	}
	want := minorIndex(version)
	best, bestDist := "", -1
	for _, r := range kueuerelease.Supported {
		d := minorIndex(r) - want
		if d < 0 {
			d = -d
		}
		// Supported is oldest first: <= keeps the newest of a minor and,
		// of two as near, the newer.
		if bestDist < 0 || d <= bestDist {
			best, bestDist = r, d
		}
	}
	return best
}

// minorIndex orders minors: v0.18 (and v0.18.2) before v0.19 before v1.0.
func minorIndex(version string) int {
	parts := strings.SplitN(strings.TrimPrefix(version, "v"), ".", 3)
	if len(parts) < 2 {
		return 0
	}
	major, _ := strconv.Atoi(parts[0])
	minor, _ := strconv.Atoi(parts[1])
	return major*1000 + minor
}
