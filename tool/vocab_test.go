package tool

import "testing"

// TestVocabularyListsCannotBeChangedByAnImporter: each list is a new slice,
// so an importer that writes into one changes neither the next caller's
// list nor the tool schema built from it.
func TestVocabularyListsCannotBeChangedByAnImporter(t *testing.T) {
	c := Categories()
	c[0] = "changed"
	if Categories()[0] != CategoryGeneral {
		t.Fatal("Categories shares its array with the caller")
	}
	r := TimeRanges()
	r[0] = "changed"
	if TimeRanges()[0] != TimeRangeDay {
		t.Fatal("TimeRanges shares its array with the caller")
	}
	e := EngineClasses()
	e[0] = "changed"
	if EngineClasses()[0] != ReasonTimeout {
		t.Fatal("EngineClasses shares its array with the caller")
	}
}
