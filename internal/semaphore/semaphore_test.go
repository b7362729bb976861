package semaphore

import (
	"context"
	"testing"
	"time"
)

func TestAcquireUpToCapacity(t *testing.T) {
	s := New(2)
	ctx := context.Background()
	if !s.Acquire(ctx) || !s.Acquire(ctx) {
		t.Fatal("a free slot was refused")
	}
	full, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if s.Acquire(full) {
		t.Fatal("a third holder was admitted to two slots")
	}
	s.Release()
	if !s.Acquire(ctx) {
		t.Fatal("a released slot was refused")
	}
}

func TestEndedContextTakesNoSlot(t *testing.T) {
	s := New(1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if s.Acquire(ctx) {
		t.Fatal("an ended context took a free slot")
	}
	if len(s) != 0 {
		t.Fatalf("%d slots held", len(s))
	}
}

func TestWaitEndsWithItsContext(t *testing.T) {
	s := New(0) // one slot
	if !s.Acquire(context.Background()) {
		t.Fatal("the one slot was refused")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan bool)
	go func() { done <- s.Acquire(ctx) }()
	cancel()
	if <-done {
		t.Fatal("a wait cancelled took the held slot")
	}
}
