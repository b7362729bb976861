package search

import "fmt"

// DriverInfo is what the configuration and the check report know of one
// driver type: the one place where a driver's needs are written down, so
// that no other code compares type names.
type DriverInfo struct {
	Type string
	// Scrapes: the driver reads a human-facing interface, so it runs only
	// with [scraping] enabled (REQ-ENG-015).
	Scrapes bool
	// KeyEnv is the environment variable the zero-configuration run reads
	// the key from; "" for a driver that takes no key.
	KeyEnv string
	// Endpoints are the values engines.<id>.endpoint may take, the default
	// first; none for a driver without that key.
	Endpoints []string
	// BaseURL: the driver takes engines.<id>.base_url.
	BaseURL bool
	// BaseURLRequired: base_url must be given (an instance the operator
	// runs has no public default).
	BaseURLRequired bool
	// PlainHTTP: base_url may be plain http on any host, not only on a
	// loopback one (the operator's own instance on a private network).
	PlainHTTP bool
	// OptionalKey: the driver takes api_key_env or api_key_file but runs
	// without; the key raises the provider's limit (KeyEnv stays "").
	OptionalKey bool
	// Site: the driver takes engines.<id>.site.
	Site bool
	// Storable: the provider's terms allow its results to be kept, so the
	// result cache may hold them (the engine's Properties().Cacheable).
	Storable bool
}

// Keyed reports whether the driver needs an API key.
func (d DriverInfo) Keyed() bool { return d.KeyEnv != "" }

// TakesKey reports whether the driver accepts an API key, needed or not.
func (d DriverInfo) TakesKey() bool { return d.Keyed() || d.OptionalKey }

type driver struct {
	info  DriverInfo
	build func(EngineConfig, Settings, Deps) (Engine, error)
}

// drivers is the driver table, in the order the book lists the types.
var drivers = [...]driver{
	{DriverInfo{Type: "wikipedia", BaseURL: true, Storable: wikipediaProperties.Cacheable},
		func(c EngineConfig, s Settings, d Deps) (Engine, error) { return newWikipedia(c, s, d) }},
	{DriverInfo{Type: "brave", KeyEnv: "BRAVE_API_KEY", Endpoints: []string{"web", "news"}, Storable: braveProperties.Cacheable},
		func(c EngineConfig, s Settings, d Deps) (Engine, error) { return newBrave(c, s, d) }},
	{DriverInfo{Type: "duckduckgo", Scrapes: true, Storable: duckDuckGoProperties.Cacheable},
		func(c EngineConfig, s Settings, d Deps) (Engine, error) { return newDuckDuckGo(c, s, d) }},
	{DriverInfo{Type: "searxng", BaseURL: true, BaseURLRequired: true, PlainHTTP: true, Storable: searxngProperties.Cacheable},
		func(c EngineConfig, s Settings, d Deps) (Engine, error) { return newSearXNG(c, s, d) }},
	{DriverInfo{Type: "stackexchange", BaseURL: true, OptionalKey: true, Site: true, Storable: stackExchangeProperties.Cacheable},
		func(c EngineConfig, s Settings, d Deps) (Engine, error) { return newStackExchange(c, s, d) }},
	{DriverInfo{Type: "github", BaseURL: true, OptionalKey: true, Endpoints: []string{"repositories", "issues"}, Storable: gitHubProperties.Cacheable},
		func(c EngineConfig, s Settings, d Deps) (Engine, error) { return newGitHub(c, s, d) }},
	{DriverInfo{Type: "arxiv", BaseURL: true, Storable: arxivProperties.Cacheable},
		func(c EngineConfig, s Settings, d Deps) (Engine, error) { return newArxiv(c, s, d) }},
	{DriverInfo{Type: "crossref", BaseURL: true, Storable: crossrefProperties.Cacheable},
		func(c EngineConfig, s Settings, d Deps) (Engine, error) { return newCrossref(c, s, d) }},
	{DriverInfo{Type: "openalex", KeyEnv: "OPENALEX_API_KEY", BaseURL: true, Storable: openAlexProperties.Cacheable},
		func(c EngineConfig, s Settings, d Deps) (Engine, error) { return newOpenAlex(c, s, d) }},
	{DriverInfo{Type: "hackernews", BaseURL: true, Storable: hackerNewsProperties.Cacheable},
		func(c EngineConfig, s Settings, d Deps) (Engine, error) { return newHackerNews(c, s, d) }},
}

// Driver returns the table entry of a driver type. Its slices are copies.
func Driver(typ string) (DriverInfo, bool) {
	for _, d := range drivers {
		if d.info.Type == typ {
			info := d.info
			info.Endpoints = append([]string(nil), d.info.Endpoints...)
			return info, true
		}
	}
	return DriverInfo{}, false
}

// DriverTypes lists the driver types in the table's order, in a new slice.
func DriverTypes() []string {
	out := make([]string, len(drivers))
	for i, d := range drivers {
		out[i] = d.info.Type
	}
	return out
}

// newDriver builds the driver of one engine type.
func newDriver(cfg EngineConfig, s Settings, d Deps) (Engine, error) {
	for _, dr := range drivers {
		if dr.info.Type == cfg.Type {
			return dr.build(cfg, s, d)
		}
	}
	return nil, fmt.Errorf("engines.%s.type: no such driver", cfg.ID)
}
