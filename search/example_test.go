package search_test

import (
	"context"
	"fmt"
	"log/slog"

	"rypsok/search"
	"rypsok/tool"
)

// A Go host builds the search service from its settings, with its own
// logger; Search and Status then answer as the web_search and
// engine_status tools do.
func ExampleNew() {
	s := search.DefaultSettings()
	s.Engines = []search.EngineConfig{
		{ID: "wikipedia", Type: "wikipedia", Categories: []tool.Category{tool.CategoryGeneral, tool.CategoryScience}, Preference: 10},
		{ID: "brave", Type: "brave", Categories: []tool.Category{tool.CategoryNews}, Disabled: tool.DisabledNoKey},
	}
	svc, err := search.New(s, search.Deps{Logger: slog.New(slog.DiscardHandler), UserAgent: "rypsok/example"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(svc.Categories())
	for _, e := range svc.Status(context.Background()).Engines {
		fmt.Println(e.ID, e.State, e.Reason)
	}
	// Output:
	// [general science]
	// brave disabled no_credential
	// wikipedia closed
}
