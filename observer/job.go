package observer

// Progress is what a long job (a sweep, a retention plan, an index build)
// reports as it goes. The TUI's Jobs screen and the CLI's progress bar
// read it; reports come from the job's goroutine, so receivers must not
// block for long.
type Progress struct {
	// Stage names the step under way: "discover", "read", "compress",
	// "flush", "plan", "index", …
	Stage string
	// Done and Total count Unit ("bytes", "sessions", "files"); Total is 0
	// when unknown.
	Done, Total int64
	Unit        string
	// Item names what is being worked on (a session key, a file).
	Item string
	// A sweep also counts sessions done of the sessions it took, and the
	// observations written so far (zero for other jobs).
	Sessions, SessionsTotal int
	Observations            int
}

// ProgressFunc receives progress reports; nil means nobody listens.
type ProgressFunc func(Progress)

// Report calls f when it is set.
func (f ProgressFunc) Report(p Progress) {
	if f != nil {
		f(p)
	}
}
