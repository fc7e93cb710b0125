package expect

// FairShares divides total among members in proportion to their weights
// (default 1), none getting more than its demand, and redistributes what
// the capped members leave: the weighted max-min yardstick the fairShare
// expectation and the reports measure shares against.
func FairShares(total float64, members []string, weights map[string]float64, demand map[string]float64) map[string]float64 {
	return waterFill(total, members, weights, demand)
}
