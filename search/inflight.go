package search

// OutboundInFlight is the number of engine requests out now and its bound
// (limits.outbound_in_flight), for an operator's gauge.
func (s *Service) OutboundInFlight() (inFlight, limit int) {
	return len(s.outbound), cap(s.outbound)
}
