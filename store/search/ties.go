package search

import (
	"container/heap"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/collector"
)

// A query matches many sections that score alike (48,619 for "re" typed
// at scale 100; the demo vault's observation lines repeat), and the hits
// are ordered by score, equal scores by id: bleve's sort by (-_score,
// _id) looks up the id of every match, a random read of its stored
// fields, which made such a query the slowest key press, and a third of a
// warm search. scoreThenID gives the same hits while looking up only the
// ids of the matches that tie at the cut: it takes the place of bleve's
// collector's handler for a query sorted by score alone, keeps the
// matches that may still make the page, and when the collector is done
// (the reader still open) hands the page to bleve's own handler.
// TestTiesAtTheCutKeepTheSortByScoreAndID holds it to bleve's sort.

// scoreThenID makes the handler for a page of limit hits.
func scoreThenID(limit int) search.MakeDocumentMatchHandler {
	return func(sc *search.SearchContext) (search.DocumentMatchHandler, bool, error) {
		keep, loadID, err := collector.MakeTopNDocumentMatchHandler(sc)
		if err != nil {
			return nil, false, err
		}
		c := &tieCut{limit: limit}
		return func(d *search.DocumentMatch) error {
			if d != nil {
				c.add(d, sc.DocumentMatchPool)
				return nil
			}
			page, err := c.page(sc)
			if err != nil {
				return err
			}
			for _, d := range page {
				if err := keep(d); err != nil {
					return err
				}
			}
			return keep(nil)
		}, loadID, nil
	}
}

// tieCut keeps the matches whose score is at least the limit-th best so
// far.
type tieCut struct {
	limit int
	kept  []*search.DocumentMatch
	best  scoreHeap // the limit best scores so far, lowest first
}

// cut is the limit-th best score so far; full is false while fewer
// matches than that were seen.
func (c *tieCut) cut() (cut float64, full bool) {
	if len(c.best) < c.limit {
		return 0, false
	}
	return c.best[0], true
}

func (c *tieCut) add(d *search.DocumentMatch, pool *search.DocumentMatchPool) {
	if cut, full := c.cut(); full && d.Score < cut {
		pool.Put(d)
		return
	}
	c.kept = append(c.kept, d)
	heap.Push(&c.best, d.Score)
	if len(c.best) > c.limit {
		heap.Pop(&c.best)
	}
	if len(c.kept) > 4*c.limit+1024 {
		c.drop(pool)
	}
}

// drop returns the kept matches that scored below the cut to the pool.
func (c *tieCut) drop(pool *search.DocumentMatchPool) {
	cut, _ := c.cut()
	c.kept = slices.DeleteFunc(c.kept, func(d *search.DocumentMatch) bool {
		if d.Score < cut {
			pool.Put(d)
			return true
		}
		return false
	})
}

// page is the best limit matches by score, equal scores by id; the ids
// of those that tie at the cut are looked up to choose among them.
func (c *tieCut) page(sc *search.SearchContext) ([]*search.DocumentMatch, error) {
	cut, full := c.cut()
	if !full {
		return c.kept, nil
	}
	c.drop(sc.DocumentMatchPool)
	var page, ties []*search.DocumentMatch
	for _, d := range c.kept {
		if d.Score > cut {
			page = append(page, d)
		} else {
			ties = append(ties, d)
		}
	}
	for _, d := range ties {
		id, err := sc.IndexReader.ExternalID(d.IndexInternalID)
		if err != nil {
			return nil, err
		}
		d.ID = id
	}
	slices.SortFunc(ties, func(a, b *search.DocumentMatch) int { return strings.Compare(a.ID, b.ID) })
	n := c.limit - len(page)
	for _, d := range ties[n:] {
		sc.DocumentMatchPool.Put(d)
	}
	return append(page, ties[:n]...), nil
}

// scoreHeap is a min-heap of scores.
type scoreHeap []float64

func (h scoreHeap) Len() int           { return len(h) }
func (h scoreHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h scoreHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *scoreHeap) Push(x any)        { *h = append(*h, x.(float64)) }
func (h *scoreHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
