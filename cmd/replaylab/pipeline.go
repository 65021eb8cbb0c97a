package main

import (
	"context"
	"sync"

	"github.com/replaylab/replaylab/store"
)

// buildAll builds items into store records on workers goroutines and
// hands each result to handle on the calling goroutine, in completion
// order, so handle can be the database's one writer. It stops feeding work
// when ctx is done.
func buildAll[T any](ctx context.Context, workers int, items []T, build func(context.Context, T) (*store.Record, error), handle func(T, *store.Record, error)) {
	type result struct {
		item T
		rec  *store.Record
		err  error
	}
	jobs := make(chan T)
	results := make(chan result)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for it := range jobs {
				rec, err := build(ctx, it)
				results <- result{it, rec, err}
			}
		})
	}
	go func() {
		defer close(jobs)
		for _, it := range items {
			select {
			case jobs <- it:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	for r := range results {
		handle(r.item, r.rec, r.err)
	}
}
