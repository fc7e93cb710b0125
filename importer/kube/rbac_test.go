package kube

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// config/rbac/reader.yaml is the role the docs give for an import: it
// grants get and list alone, and every resource the import lists.
func TestReaderRoleCoversTheImportAndOnlyReads(t *testing.T) {
	data, err := os.ReadFile("../../config/rbac/reader.yaml")
	if err != nil {
		t.Fatal(err)
	}
	granted := map[string]bool{} // resource.group
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for {
		var role rbacv1.ClusterRole
		if err := dec.Decode(&role); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		for _, rule := range role.Rules {
			for _, v := range rule.Verbs {
				if v != "get" && v != "list" {
					t.Errorf("ClusterRole %s grants %q on %v: give get and list only", role.Name, v, rule.Resources)
				}
			}
			for _, g := range rule.APIGroups {
				for _, r := range rule.Resources {
					granted[r+"."+g] = true
				}
			}
		}
	}
	want := []string{"nodes.", "namespaces.", "configmaps.", "deployments.apps"}
	for _, k := range kueueKinds {
		want = append(want, k.resource+".kueue.x-k8s.io")
	}
	want = append(want, "workloads.kueue.x-k8s.io")
	for _, k := range platformKinds {
		want = append(want, k.resource+"."+k.gv.Group)
	}
	for _, k := range ownerTypes {
		want = append(want, k.resource+"."+k.gv.Group)
	}
	for _, r := range want {
		if !granted[r] {
			t.Errorf("config/rbac/reader.yaml does not grant %s, which the import lists", r)
		}
	}
}
