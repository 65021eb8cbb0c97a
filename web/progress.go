package web

import "sync"

// Fill is the progress of matches being stored while the server already
// answers, as "replaylab serve --demo" stores its demo: the overview page
// shows it and reloads itself until the fill ends. Its methods are safe
// for concurrent use; the zero Fill has not started.
type Fill struct {
	mu                  sync.Mutex
	done, total, failed int
	running             bool
}

// Start begins a fill of total matches.
func (f *Fill) Start(total int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.done, f.total, f.failed, f.running = 0, total, 0, true
}

// Step counts one match of the fill as handled: stored, or failed when
// err is not nil.
func (f *Fill) Step(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.done++
	if err != nil {
		f.failed++
	}
}

// Finish ends the fill, complete or stopped.
func (f *Fill) Finish() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.running = false
}

// fillState is what a page shows of a Fill.
type fillState struct {
	Running             bool
	Done, Total, Failed int
}

// state returns the fill's progress; a nil Fill has none running.
func (f *Fill) state() fillState {
	if f == nil {
		return fillState{}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return fillState{Running: f.running, Done: f.done, Total: f.total, Failed: f.failed}
}
