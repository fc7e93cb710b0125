package engine

import (
	"context"
	"errors"
	"sync"
)

// workers bounds the API calls the engine makes at once: enough to keep
// kube-apiserver busy (it sustains far more concurrent writes than
// sequential ones), few enough not to starve the controllers.
const workers = 16

// call is one API call of an instant. do talks to the API server and may
// run concurrently with the instant's other calls; it must not touch the
// engine's state. after runs on the engine's loop once every call of the
// instant has returned, in the order of the calls, with do's error: it
// records the outcome and returns the error that stops the run, if any.
type call struct {
	do    func(context.Context) error
	after func(error) error
}

// applyAll applies the actions of one instant: bookkeeping in step order on
// the loop, the API calls concurrently, their outcomes in step order again.
// Which call reaches the API server first does not matter: Kueue's
// scheduler is held while they run and orders arrivals by QueueOrder's
// times. It returns the states of the instant's arrivals.
func (r *Runner) applyAll(ctx context.Context, items []*item) ([]*wlState, error) {
	calls := r.takePrunes()
	var arrived []*wlState
	for _, it := range items {
		switch it.act {
		case actArrive:
			st, c, err := r.prepareArrival(it.arrival, it.position, int64(it.seq))
			if err != nil {
				return nil, err
			}
			arrived = append(arrived, st)
			calls = append(calls, c)
		case actFinish:
			if it.st.generation != it.generation || it.st.finished || it.st.deleted {
				continue // preempted or gone since: this run's end is void
			}
			calls = append(calls, r.finish(it.st))
		case actDelete:
			if c, ok := r.remove(it.st); ok {
				calls = append(calls, c)
			}
		}
	}
	errs := parallel(ctx, workers, calls)
	var stop []error
	for i, c := range calls {
		err := errs[i]
		if c.after != nil {
			err = c.after(err)
		}
		if err != nil {
			stop = append(stop, err)
		}
	}
	return arrived, errors.Join(stop...)
}

// parallel runs the calls' do with at most n at a time and returns their
// errors by index; the first error cancels the calls not yet started
// (their error is the context's).
func parallel(ctx context.Context, n int, calls []call) []error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(calls))
	work := make(chan int)
	var wg sync.WaitGroup
	for i := 0; i < min(n, len(calls)); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				if err := calls[j].do(ctx); err != nil {
					errs[j] = err
					cancel()
				}
			}
		}()
	}
	for j := range calls {
		if ctx.Err() != nil {
			errs[j] = ctx.Err()
			continue
		}
		work <- j
	}
	close(work)
	wg.Wait()
	return errs
}
