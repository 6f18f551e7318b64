package cli

import (
	"runtime"
	"sync"
)

// ElementsInBlocks writes n elements into the array being written, element
// i by write(sub, i), blocks of them encoded on every core and written in
// order: status's 50,000 sessions are 75 MB of JSON, and encoding them on
// one core after the scan was a tenth of the command's time. At most a
// few blocks wait in memory at once, so the output still streams.
func (s *jsonStream) ElementsInBlocks(n, block int, write func(sub *jsonStream, i int)) {
	workers := runtime.GOMAXPROCS(0)
	if n <= block || workers == 1 {
		for i := range n {
			write(s, i)
		}
		return
	}
	type result struct {
		from, to int
		buf      []byte
		done     chan []byte
	}
	depth := len(s.open)
	encode := func(r result) {
		sub := &jsonStream{b: r.buf[:0], open: make([]bool, depth)}
		// Not the first element: each one after a comma, on its own line.
		sub.open[depth-1] = true
		for i := r.from; i < r.to; i++ {
			write(sub, i)
		}
		r.done <- sub.b
	}
	// A fixed set of buffers goes round: a block is encoded into a free
	// one and it is free again once written, so the blocks' memory is
	// made once (not 75 MB of garbage for 50,000 sessions) and bounded.
	buffers := 2*workers + 1
	free := make(chan []byte, buffers)
	for range buffers {
		free <- nil
	}
	jobs := make(chan result, buffers)
	inOrder := make(chan result, buffers)
	go func() {
		defer close(jobs)
		defer close(inOrder)
		for from := block; from < n; from += block {
			r := result{from: from, to: min(from+block, n), buf: <-free, done: make(chan []byte, 1)}
			inOrder <- r
			jobs <- r
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range jobs {
				encode(r)
			}
		}()
	}
	// The first block here, through the stream itself (it may be the
	// array's first element), while the workers start on the next ones.
	for i := range block {
		write(s, i)
	}
	for r := range inOrder {
		buf := <-r.done
		s.writeThrough(buf)
		free <- buf
	}
	wg.Wait()
}
