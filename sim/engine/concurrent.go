package engine

import (
	"context"
	"errors"
	"sync"
)

// relaxedWorkers bounds the API calls relaxed pacing makes at once: enough
// to keep kube-apiserver busy (it sustains far more concurrent writes than
// sequential ones), few enough not to starve the controllers.
const relaxedWorkers = 16

// applyAll applies the actions of one instant with relaxed pacing: the
// bookkeeping in step order, the API calls concurrently. Which of two
// simultaneous actions the control plane sees first is then a race, as
// relaxed pacing allows.
func (r *Runner) applyAll(ctx context.Context, items []*item) error {
	calls := r.takePrunes()
	for _, it := range items {
		if it.act == actArrive {
			submit, err := r.prepareArrival(ctx, it.arrival)
			if err != nil {
				return err
			}
			calls = append(calls, submit)
			continue
		}
		it := it
		calls = append(calls, func(ctx context.Context) error { return r.apply(ctx, it) })
	}
	return parallel(ctx, relaxedWorkers, calls)
}

// parallel runs calls with at most n at a time and joins their errors; the
// first error cancels the calls not yet started.
func parallel(ctx context.Context, n int, calls []func(context.Context) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make(chan func(context.Context) error)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
	)
	for i := 0; i < min(n, len(calls)); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for call := range work {
				if err := call(ctx); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
					cancel()
				}
			}
		}()
	}
	for _, c := range calls {
		if ctx.Err() != nil {
			break
		}
		work <- c
	}
	close(work)
	wg.Wait()
	return errors.Join(errs...)
}
