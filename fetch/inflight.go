package fetch

// InFlight is the number of fetches and of extractions running now, with
// their bounds (limits.fetches_in_flight, limits.parsing_in_flight), for
// an operator's gauges.
func (s *Service) InFlight() (fetches, fetchLimit, parses, parseLimit int) {
	return len(s.fetches), cap(s.fetches), len(s.parsing), cap(s.parsing)
}
