package scenarios

import (
	"maps"
	"os"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
)

// releaseKeys are the keys of cluster.kueueReleases in the order their
// bodies apply: minors before releases, each sorted.
func releaseKeys(m map[string]map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if da, db := strings.Count(a, "."), strings.Count(b, "."); da != db {
			return da - db
		}
		return strings.Compare(a, b)
	})
	return keys
}

// mergePatch is patch laid over base as a JSON merge patch (RFC 7386):
// mappings merge key by key, a null removes the key, any other value
// replaces. It writes into neither; the result shares their untouched
// values.
func mergePatch(base, patch map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(patch))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range patch {
		if v == nil {
			delete(out, k)
			continue
		}
		pm, ok := v.(map[string]any)
		if !ok {
			out[k] = v
			continue
		}
		bm, _ := out[k].(map[string]any)
		out[k] = mergePatch(bm, pm)
	}
	return out
}

// unsupported says what a release key may name.
func unsupported() string {
	newest := kueuerelease.Supported[len(kueuerelease.Supported)-1]
	return "kueue-sim runs Kueue " + strings.Join(kueuerelease.Supported, ", ") + ": name one of them or its minor (such as " + kueuerelease.Minor(newest) + ")"
}

// checkKueueReleases checks cluster.kueueVersion and cluster.kueueReleases: each key names a
// supported release or minor, and the bodies that select the Kueue of
// this binary fit its Configuration (the others are checked by the binary
// of their release, when it runs the scenario).
func checkKueueReleases(tree any) field.ErrorList {
	cluster, _ := tree.(map[string]any)["cluster"].(map[string]any)
	var errs field.ErrorList
	if v, ok := cluster["kueueVersion"].(string); ok {
		if _, ok := kueuerelease.Resolve(v); !ok {
			errs = append(errs, field.Invalid(field.NewPath("cluster", "kueueVersion"), v, unsupported()))
		}
	}
	releases, _ := cluster["kueueReleases"].(map[string]any)
	p := field.NewPath("cluster", "kueueReleases")
	for _, k := range slices.Sorted(maps.Keys(releases)) {
		kp := p.Key(k)
		if kueuerelease.ParseKey(k) != nil {
			errs = append(errs, field.Invalid(kp, k, "not a Kueue release or minor: write it as v0.19.2 (one release) or v0.19 (every release of the minor)"))
			continue
		}
		if !kueuerelease.Selects(k) {
			errs = append(errs, field.Invalid(kp, k, unsupported()))
			continue
		}
		body, ok := releases[k].(map[string]any)
		if !ok || !kueuerelease.Matches(k, kueuerelease.Compiled()) {
			continue
		}
		errs = append(errs, checkKueueConfig(kp, body)...)
	}
	return errs
}

// PinnedKueue reads the cluster.kueueVersion of the scenario file at path
// without loading the scenario: the sim of that release loads it, since
// cluster.kueue is checked against the Configuration of the Kueue that
// runs it. "" when the file names none or does not parse (loading it
// then says why).
func PinnedKueue(path string) string {
	data, err := os.ReadFile(path)
	if err != nil || len(data) > MaxFileSize {
		return ""
	}
	if _, fatal, _ := parseSource(data); len(fatal) > 0 {
		return "" // too deep, or aliases that expand too far
	}
	var doc struct {
		Cluster struct {
			KueueVersion string `json:"kueueVersion"`
		} `json:"cluster"`
	}
	if yaml.Unmarshal(data, &doc) != nil {
		return ""
	}
	return doc.Cluster.KueueVersion
}
