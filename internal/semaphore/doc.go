// Package semaphore is the counting semaphore that search and fetch bound
// their concurrent work with: a wait for a slot ends with its context.
package semaphore
