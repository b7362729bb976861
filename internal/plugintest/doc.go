// Package plugintest builds the RSP plugins the tests run and proves that
// none of their processes outlives the tests. Only tests import it.
package plugintest
