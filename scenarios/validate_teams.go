package scenarios

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

func (v *validator) teamList(p *field.Path) field.ErrorList {
	var errs field.ErrorList
	namespaces := map[string]string{}
	for i := range v.s.Teams {
		t := &v.s.Teams[i]
		tp := p.Index(i)
		errs = append(errs, v.teams.declare(tp.Child("name"), t.Name, dnsLabel)...)
		if _, dup := v.teamByName[t.Name]; !dup {
			v.teamByName[t.Name] = t
		}
		// The namespace defaults to the name, already checked.
		if t.Namespace != t.Name {
			errs = append(errs, dnsLabel(tp.Child("namespace"), t.Namespace)...)
		}
		if first, dup := namespaces[t.Namespace]; dup && t.Namespace != "" {
			errs = append(errs, withDetail(field.Duplicate(tp.Child("namespace"), t.Namespace), fmt.Sprintf(
				"%s has this namespace too: give each team its own (set namespace to tell them apart)", first)))
		} else {
			namespaces[t.Namespace] = tp.String()
		}
		errs = append(errs, labelMap(tp.Child("labels"), t.Labels)...)
		lqs := v.localQueues[t.Namespace]
		if lqs == nil {
			where := tp.Child("localQueues").String()
			if len(v.s.Queues.Manifests) > 0 {
				where += " or in queues.manifests (namespace " + t.Namespace + ")"
			}
			lqs = newNames("LocalQueue", where, "{name: gpu, clusterQueue: research}")
			v.localQueues[t.Namespace] = lqs
		}
		for j, lq := range t.LocalQueues {
			lp := tp.Child("localQueues").Index(j)
			errs = append(errs, lqs.declare(lp.Child("name"), lq.Name, labelValueName)...)
			errs = append(errs, v.cqs.ref(lp.Child("clusterQueue"), lq.ClusterQueue)...)
		}
	}
	return errs
}

// queuesOf are the LocalQueues of a namespace (empty when no team has it).
func (v *validator) queuesOf(namespace string) *names {
	if lqs := v.localQueues[namespace]; lqs != nil {
		return lqs
	}
	return newNames("LocalQueue", fmt.Sprintf("the localQueues of the team with namespace %s", namespace), "{name: gpu, clusterQueue: research}")
}

func (v *validator) profileList(p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := range v.s.Queues.HardwareProfiles {
		hp := &v.s.Queues.HardwareProfiles[i]
		hpp := p.Index(i)
		errs = append(errs, v.profiles.declare(hpp.Child("name"), hp.Name, dnsLabel)...)
		if _, dup := v.profileByName[hp.Name]; !dup {
			v.profileByName[hp.Name] = hp
		}
		switch {
		case hp.Namespace == "":
			errs = append(errs, field.Required(hpp.Child("namespace"), "declare a team (the profile's namespace defaults to the first team's) or set namespace"))
		case v.localQueues[hp.Namespace] == nil:
			errs = append(errs, withDetail(field.NotFound(hpp.Child("namespace"), hp.Namespace), "no team has this namespace: use a team's namespace"))
		}
		switch {
		case hp.LocalQueue == "" && len(hp.NodeSelector) == 0:
			errs = append(errs, field.Required(hpp.Child("localQueue"), "a profile either sends workloads to a LocalQueue (localQueue: gpu) or pins them to nodes (nodeSelector)"))
		case hp.LocalQueue != "" && len(hp.NodeSelector) > 0:
			errs = append(errs, field.Forbidden(hpp.Child("nodeSelector"), "a Queue profile leaves placement to its LocalQueue's flavors: remove nodeSelector or localQueue"))
		case hp.LocalQueue != "" && hp.Namespace != "" && v.localQueues[hp.Namespace] != nil:
			if errs2 := v.queuesOf(hp.Namespace).ref(hpp.Child("localQueue"), hp.LocalQueue); len(errs2) > 0 {
				errs2[0].Detail = fmt.Sprintf("the team with namespace %s has no such LocalQueue: %s", hp.Namespace, errs2[0].Detail)
				errs = append(errs, errs2...)
			}
		}
		errs = append(errs, labelMap(hpp.Child("nodeSelector"), hp.NodeSelector)...)
		if hp.PriorityClass != "" {
			errs = append(errs, v.priorities.ref(hpp.Child("priorityClass"), hp.PriorityClass)...)
		}
	}
	return errs
}
