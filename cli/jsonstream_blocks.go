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
		done     chan *[]byte
	}
	depth := len(s.open)
	pool := sync.Pool{New: func() any { return new([]byte) }}
	encode := func(r result) {
		buf := pool.Get().(*[]byte)
		sub := &jsonStream{b: (*buf)[:0], open: make([]bool, depth)}
		// Not the first element: each one after a comma, on its own line.
		sub.open[depth-1] = true
		for i := r.from; i < r.to; i++ {
			write(sub, i)
		}
		*buf = sub.b
		r.done <- buf
	}
	jobs := make(chan result, 2*workers)
	inOrder := make(chan result, 2*workers)
	go func() {
		defer close(jobs)
		defer close(inOrder)
		for from := block; from < n; from += block {
			r := result{from: from, to: min(from+block, n), done: make(chan *[]byte, 1)}
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
		s.writeThrough(*buf)
		pool.Put(buf)
	}
	wg.Wait()
}
