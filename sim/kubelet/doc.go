// Package kubelet is kueue-sim's fake kubelet: one small controller that
// plays the node agent for pods the real kube-scheduler has bound.
//
// It follows the kubelet's documented status conventions and nothing more:
// a bound pod becomes Running with its containers started and Ready; Finish
// moves it to Succeeded or Failed with terminated container states; a pod
// being deleted is removed with grace period 0 once "its containers stopped",
// as the kubelet does. No container runs anywhere.
package kubelet
