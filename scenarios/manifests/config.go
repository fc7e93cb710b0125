package manifests

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"

	"go.yaml.in/yaml/v3"
	sigsjson "sigs.k8s.io/json"
	configv1beta1 "sigs.k8s.io/kueue/apis/config/v1beta1"
	configapi "sigs.k8s.io/kueue/apis/config/v1beta2"

	"github.com/kueue-sim/kueue-sim/scenarios/internal/yamlcheck"
)

// The Kueue Configuration versions cluster.kueueConfig may be written in.
const (
	configV1beta2 = "config.kueue.x-k8s.io/v1beta2"
	configV1beta1 = "config.kueue.x-k8s.io/v1beta1"
)

// configRefused are the v1beta1 Configuration fields with no v1beta2
// equivalent, each with the fix.
var configRefused = map[string]string{
	"queueVisibility":         "removed in v1beta2 (Kueue serves pending workloads through the visibility API instead): remove it",
	"integrations.podOptions": "removed in v1beta2 (use managedJobsNamespaceSelector): remove it",
}

// LoadKueueConfig reads the Kueue Configuration file ref (relative to
// baseDir): config.kueue.x-k8s.io/v1beta2, or v1beta1 converted with
// Kueue's own conversion after Kueue's v1beta1 defaults, as Kueue's loader
// reads a v1beta1 file. It returns the v1beta2 body without apiVersion and
// kind, as cluster.kueue holds it, and the file's path.
func LoadKueueConfig(baseDir, ref string) (map[string]any, string, []Problem) {
	path := ref
	if !filepath.IsAbs(path) {
		path = filepath.Join(baseDir, ref)
	}
	refProblem := func(msg string) []Problem { return []Problem{{Item: -1, Field: "cluster.kueueConfig", Msg: msg}} }
	data, err := readFile(path)
	if err != nil {
		return nil, path, refProblem(fmt.Sprintf("reading the Kueue configuration: %v (the path is relative to the scenario's folder)", err))
	}
	if len(data) > MaxFileSize {
		return nil, path, refProblem(fmt.Sprintf("%s is over the %d-byte limit", path, MaxFileSize))
	}
	at := Object{Kind: "Configuration", Source: Source{File: path, Doc: 1, Item: -1, Line: 1}}
	problem := func(p, msg string) []Problem { return []Problem{at.Problem(p, msg)} }
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var n yaml.Node
	if err := dec.Decode(&n); err != nil {
		line, msg := yamlError(err)
		return nil, path, []Problem{{File: path, Line: line, Item: -1, Msg: "not valid YAML: " + msg}}
	}
	var second yaml.Node
	if err := dec.Decode(&second); err == nil && len(second.Content) > 0 {
		return nil, path, []Problem{{File: path, Line: second.Content[0].Line, Doc: 2, Item: -1, Msg: "a second document: the Kueue configuration file holds one Configuration"}}
	}
	if len(n.Content) == 0 {
		return nil, path, problem("", "the file is empty: give a Configuration (apiVersion: "+configV1beta2+", kind: Configuration)")
	}
	at.lines = yamlcheck.NewIndex(n.Content[0])
	at.Source.Line = n.Content[0].Line
	tree, err := jsonTree(n.Content[0])
	if err != nil {
		_, msg := yamlError(err)
		return nil, path, problem("", msg)
	}
	m, ok := tree.(map[string]any)
	if !ok {
		return nil, path, problem("", "not a mapping: give a Configuration (apiVersion: "+configV1beta2+", kind: Configuration)")
	}
	apiVersion, _ := m["apiVersion"].(string)
	if kind, _ := m["kind"].(string); kind != "Configuration" || (apiVersion != configV1beta2 && apiVersion != configV1beta1) {
		return nil, path, problem("kind", fmt.Sprintf("kind %q (apiVersion %q): the file must hold a Kueue Configuration, apiVersion %s (or v1beta1) and kind Configuration", kind, apiVersion, configV1beta2))
	}
	t := reflect.TypeFor[configapi.Configuration]()
	if apiVersion == configV1beta1 {
		t = reflect.TypeFor[configv1beta1.Configuration]()
	}
	var probs []Problem
	for _, e := range yamlcheck.Check(nil, m, t, yamlcheck.Options{Doc: func(string) string { return "Kueue's Configuration reference, " + apiVersion }}) {
		probs = append(probs, at.Problem(e.Field, message(e)))
	}
	if apiVersion == configV1beta1 {
		for _, p := range sortedKeys(configRefused) {
			if has(m, p) {
				probs = append(probs, at.Problem(p, configRefused[p]))
			}
		}
	}
	if len(probs) > 0 {
		return nil, path, probs
	}
	js, _ := json.Marshal(m)
	if apiVersion == configV1beta1 {
		js, err = convertConfig(js)
		if err != nil {
			return nil, path, problem("", err.Error())
		}
	}
	body := map[string]any{}
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(js, &body); err != nil {
		return nil, path, problem("", fmt.Sprintf("decoding the Configuration: %v", err))
	}
	delete(body, "apiVersion")
	delete(body, "kind")
	return prune(body).(map[string]any), path, nil
}

// convertConfig converts a v1beta1 Configuration as Kueue's loader does:
// v1beta1 defaults, then the conversion. The default integrations.frameworks
// (batch/job only) is left out, so that kueue-sim's default applies as it
// does to a v1beta2 configuration that names none.
func convertConfig(js []byte) ([]byte, error) {
	in := &configv1beta1.Configuration{}
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(js, in); err != nil {
		return nil, fmt.Errorf("decoding the v1beta1 Configuration: %w", err)
	}
	frameworks := in.Integrations != nil && len(in.Integrations.Frameworks) > 0
	configv1beta1.SetObjectDefaults_Configuration(in)
	if !frameworks && in.Integrations != nil {
		in.Integrations.Frameworks = nil
	}
	out := &configapi.Configuration{}
	if err := configv1beta1.Convert_v1beta1_Configuration_To_v1beta2_Configuration(in, out, nil); err != nil {
		return nil, fmt.Errorf("converting the Configuration to %s with Kueue's conversion: %w: write it in v1beta2", configV1beta2, err)
	}
	data, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("writing the converted Configuration: %w", err)
	}
	return data, nil
}

// prune drops null values and the mappings left empty, which the
// conversion writes for unset fields.
func prune(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	for k, x := range m {
		x = prune(x)
		if sub, isMap := x.(map[string]any); x == nil || (isMap && len(sub) == 0) {
			delete(m, k)
			continue
		}
		m[k] = x
	}
	return m
}
