package search

import (
	"context"
	"errors"

	"rypsok/tool"
)

// duckDuckGoProperties follow the engine's admission record: 10 requests a
// minute, one at a time, 500 characters, every language and time range,
// never cacheable, 256 KiB a page.
var duckDuckGoProperties = Properties{
	RatePerMinute: 10, Burst: 1, MaxInFlight: 1, MaxQueryChars: 500,
	TimeRanges: true, Cacheable: false, ResponseBytes: 256 << 10,
}

type duckDuckGo struct {
	id   string
	cats []tool.Category
}

func newDuckDuckGo(cfg EngineConfig, s Settings, d Deps) (*duckDuckGo, error) {
	return nil, errors.New("engines." + cfg.ID + ".type: the duckduckgo driver is not built yet")
}

func (e *duckDuckGo) ID() string                  { return e.id }
func (e *duckDuckGo) Categories() []tool.Category { return e.cats }
func (e *duckDuckGo) Properties() Properties      { return duckDuckGoProperties }
func (e *duckDuckGo) Search(ctx context.Context, req EngineRequest) ([]RawResult, error) {
	return nil, failure(tool.ReasonRequestFailure)
}
