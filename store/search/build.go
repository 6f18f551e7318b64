package search

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/util"
	index "github.com/blevesearch/bleve_index_api"
)

// A full build (an empty index and files to read: the first sync, a
// rebuild) does not go through the online index: scorch's offline builder
// makes segments of buildBatchDocs documents in memory, writes each once,
// and merges them all in one pass at the end, where the online index
// introduces, persists (with fdatasyncs) and merges again and again every
// 64 KiB batch. The built store replaces the empty one only when it is
// complete, with the manifest in it; until then searches see the empty
// index, and a build that fails or is cancelled leaves it empty.
//
// Analysis runs in the reading goroutine and segment building in the
// builder's, a segment's worth of documents at a time, so that the
// reading goroutine analyses the next segment's documents while the
// builder builds one: the two use two cores.

// buildBatchDocs is how many documents one segment of a full build holds;
// two segments' documents are in memory at a time. At scale 100 (130,000
// documents, under load) 1,250 took no more CPU than 2,500 or 5,000 and
// peaked at 198 MB resident against 256-278 and 371-430 MB.
const buildBatchDocs = 1250

// buildDir is the folder inside the index folder where a full build
// writes; create removes it with the rest.
func (ix *Index) buildDir() string { return filepath.Join(ix.opt.Dir, "build") }

// offlineBuild feeds analysed documents to scorch's builder, which runs in
// its own goroutine.
type offlineBuild struct {
	b *scorch.Builder
	// pending are the documents analysed for the next segment; docs
	// takes them to the builder's goroutine, one segment's at a time.
	pending  []*document.Document
	docs     chan []*document.Document
	done     chan error
	internal map[string][]byte
	dir      string
	analysis *buildAnalysis
}

func (ix *Index) startBuild() (*offlineBuild, error) {
	dir := ix.buildDir()
	if err := os.RemoveAll(dir); err != nil {
		return nil, fmt.Errorf("cannot remove an old build of the search index: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot build the search index in %s: %w", dir, err)
	}
	mappingJSON, err := util.MarshalJSON(ix.m)
	if err != nil {
		return nil, err
	}
	// The builder keeps this map and writes it into the index's root when
	// it closes: the manifest goes in just before (finish).
	internal := map[string][]byte{string(util.MappingInternalKey): mappingJSON, string(keySchema): []byte(schemaStamp(ix.m))}
	b, err := scorch.NewBuilder(map[string]any{
		"path":            filepath.Join(dir, "store"),
		"buildPathPrefix": dir,
		"batchSize":       buildBatchDocs,
		"mergeMax":        1 << 20, // one merge of every segment
		"internal":        internal,
	})
	if err != nil {
		return nil, fmt.Errorf("cannot build the search index in %s: %w", dir, err)
	}
	ob := &offlineBuild{b: b, docs: make(chan []*document.Document), done: make(chan error, 1), internal: internal, dir: dir, analysis: newBuildAnalysis(ix.an)}
	go ob.run()
	return ob, nil
}

func (ob *offlineBuild) run() {
	var err error
	for docs := range ob.docs {
		for _, d := range docs {
			if err == nil {
				err = ob.b.Index(d)
			}
		}
	}
	ob.done <- err
}

// add analyses a document and hands it to the builder. The builder
// analyses what it indexes again, unless the field says it is done
// (analyzedField).
func (ob *offlineBuild) add(d *document.Document) {
	for i, f := range d.Fields {
		if tf, ok := f.(*document.TextField); ok && tf.Options().IsIndexed() {
			d.Fields[i] = ob.analysis.field(tf)
		}
	}
	ob.pending = append(ob.pending, d)
	if len(ob.pending) == buildBatchDocs {
		ob.docs <- ob.pending
		ob.pending = make([]*document.Document, 0, buildBatchDocs)
	}
}

// finish writes the last segment, merges, and leaves the built store in
// ob.dir/store with internal (the manifest and folder records) in it.
func (ob *offlineBuild) finish(internal map[string][]byte) error {
	ob.docs <- ob.pending
	close(ob.docs)
	err := <-ob.done
	if err == nil {
		for k, v := range internal {
			ob.internal[k] = v
		}
		err = ob.b.Close()
	}
	if err != nil {
		os.RemoveAll(ob.dir)
		return fmt.Errorf("cannot build the search index: %w", err)
	}
	return nil
}

// abort drops the build.
func (ob *offlineBuild) abort() {
	close(ob.docs)
	<-ob.done
	// Close merges what was built: a cancelled build only removes it.
	os.RemoveAll(ob.dir)
}

// install replaces the index's store with the one built, and opens it.
// Called with mu held and idxMu not held.
func (ix *Index) install(built string) error {
	return ix.reopen(func() error {
		store := ix.storePath()
		if err := os.RemoveAll(store); err != nil {
			return fmt.Errorf("cannot replace the search index: %w", err)
		}
		if err := os.Rename(filepath.Join(built, "store"), store); err != nil {
			return fmt.Errorf("cannot replace the search index: %w", err)
		}
		os.RemoveAll(built)
		ok, err := ix.openExisting(false)
		if err == nil && !ok {
			err = errors.New("the index just built does not open")
		}
		if err != nil {
			ix.damaged = true
			return fmt.Errorf("cannot open the search index just built in %s: %w", ix.opt.Dir, err)
		}
		return nil
	})
}

// analyzedField is a text field analysed before it reached the builder
// (buildAnalysis.field).
type analyzedField struct {
	*document.TextField
	length int
	freqs  index.TokenFrequencies
}

func (analyzedField) Analyze()                                           {}
func (f analyzedField) AnalyzedLength() int                              { return f.length }
func (f analyzedField) AnalyzedTokenFrequencies() index.TokenFrequencies { return f.freqs }
