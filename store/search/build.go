package search

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/util"
	index "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	zap "github.com/blevesearch/zapx/v17"
)

// A full build (an empty index and files to read: the first sync, a
// rebuild) does not go through the online index: segments of
// buildBatchDocs documents are built in memory, each written once, and
// merged at the end into finalSegments segments, where the online index
// introduces, persists (with fdatasyncs) and merges again and again every
// 64 KiB batch. The built store replaces the empty one only when it is
// complete, with the manifest in it; until then searches see the empty
// index, and a build that fails or is cancelled leaves it empty.
//
// Analysis runs in the reading goroutine; segments are built by
// buildWorkers goroutines, a segment's worth of documents each, so that
// every core has work: scorch's own offline builder (scorch.Builder)
// builds one segment at a time, and building segments was the larger half
// of a build, so the reading goroutine waited for it. The store's root
// (root.bolt: the segment's file name, the internal values with the
// manifest) is still written by scorch.Builder, given a placeholder
// document; the first of the merged segments takes the place of the
// placeholder's segment, and the root is given the others.
//
// Each segment built ends with a document of every field (everyField),
// which the merge drops: segments of the same fields, with the same
// options, let zap's merge copy postings as they are encoded instead of
// decoding and encoding each again (a fifth less merge time at scale
// 100).

// buildBatchDocs is how many documents one segment of a full build holds;
// up to buildWorkers+1 segments' documents are in memory at a time. At
// scale 100 (130,000 documents, under load) 1,250 took no more CPU than
// 2,500 or 5,000 and peaked lower. (Tests change an index's:
// Index.buildBatchDocs.)
const buildBatchDocs = 1250

// buildWorkers is how many segments are built at a time.
const buildWorkers = 2

// buildGCPercent is the garbage collector's target while a full build
// runs (GOGC=200): a build allocates its documents and segments in bulk,
// and marking took a sixth of its instructions at the default 100
// (callgrind, scale 10); the process's peak grows by about half as much
// again. A GOGC of more, or off, is left as it is.
const buildGCPercent = 200

// buildGC counts the full builds running in the process: the first
// raises the collector's target, the last puts it back.
var buildGC struct {
	sync.Mutex
	running, was int
}

func raiseGCForBuild() {
	buildGC.Lock()
	defer buildGC.Unlock()
	if buildGC.running == 0 {
		buildGC.was = debug.SetGCPercent(buildGCPercent)
		if buildGC.was < 0 || buildGC.was > buildGCPercent {
			debug.SetGCPercent(buildGC.was)
		}
	}
	buildGC.running++
}

func restoreGCAfterBuild() {
	buildGC.Lock()
	defer buildGC.Unlock()
	if buildGC.running--; buildGC.running == 0 {
		debug.SetGCPercent(buildGC.was)
	}
}

// buildDir is the folder inside the index folder where a full build
// writes; create removes it with the rest.
func (ix *Index) buildDir() string { return filepath.Join(ix.opt.Dir, "build") }

// segmentFormat builds and merges a full build's segments: the format
// scorch writes by default, which scorch.Builder names in the root.
var segmentFormat = &zap.ZapPlugin{}

// offlineBuild builds a full build's segments in buildWorkers goroutines.
type offlineBuild struct {
	// pending are the documents analysed for the next segment; batches
	// takes them to a worker.
	pending []*document.Document
	batches chan segmentBatch
	workers sync.WaitGroup
	// mu guards err, which the workers write.
	mu       sync.Mutex
	err      error
	next     int // the next batch's number
	internal map[string][]byte
	dir      string
	analysis *buildAnalysis
	an       analyzers
	// batchDocs is buildBatchDocs, or what a test set.
	batchDocs int
	m         *mapping.IndexMappingImpl
	// stopped, gcRestored: stopWorkers and restoreGC ran.
	stopped, gcRestored bool
}

type segmentBatch struct {
	n    int
	docs []*document.Document
}

func (ix *Index) startBuild() (*offlineBuild, error) {
	dir := ix.buildDir()
	if err := os.RemoveAll(dir); err != nil {
		return nil, fmt.Errorf("cannot remove an old build of the search index: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "segments"), 0o700); err != nil {
		return nil, fmt.Errorf("cannot build the search index in %s: %w", dir, err)
	}
	mappingJSON, err := util.MarshalJSON(ix.m)
	if err != nil {
		return nil, err
	}
	// Written into the store's root at the end, with the manifest (finish).
	internal := map[string][]byte{string(util.MappingInternalKey): mappingJSON, string(keySchema): []byte(schemaStamp(ix.m))}
	ob := &offlineBuild{batches: make(chan segmentBatch), internal: internal, dir: dir, analysis: newBuildAnalysis(ix.an), an: ix.an, m: ix.m, batchDocs: ix.buildBatchDocs}
	raiseGCForBuild()
	for range buildWorkers {
		ob.workers.Add(1)
		go ob.work()
	}
	return ob, nil
}

// work builds and writes the segments of the batches it takes.
func (ob *offlineBuild) work() {
	defer ob.workers.Done()
	for b := range ob.batches {
		if ob.failed() {
			continue // drain: the build is lost
		}
		err := safely(func() error { return buildSegment(append(b.docs, ob.an.everyField()), ob.segmentPath(b.n)) })
		ob.mu.Lock()
		if err != nil && ob.err == nil {
			ob.err = err
		}
		ob.mu.Unlock()
	}
}

// segmentPath is the file of batch n's segment.
func (ob *offlineBuild) segmentPath(n int) string {
	return filepath.Join(ob.dir, "segments", fmt.Sprintf("%08d.zap", n))
}

func (ob *offlineBuild) failed() bool {
	ob.mu.Lock()
	defer ob.mu.Unlock()
	return ob.err != nil
}

// buildSegment builds one segment of docs and writes it to path, as
// scorch.Builder does: each document gets its _id field, and its fields
// are analysed (a no-op for those analysed already: analyzedField). The
// file is not synced, unlike a segment scorch persists: it lives until
// the merge at the end, whose file is (a crash in between leaves an
// index that is rebuilt). Kept in memory instead, the segments raised a
// build's peak by half (the collector's target is three times the live
// heap during a build) for little less CPU.
func buildSegment(docs []*document.Document, path string) error {
	results := make([]index.Document, len(docs))
	for i, d := range docs {
		d.AddIDField()
		d.VisitFields(func(f index.Field) {
			if f.Options().IsIndexed() {
				f.Analyze()
			}
		})
		results[i] = d
	}
	seg, _, err := segmentFormat.New(results)
	if err != nil {
		return fmt.Errorf("cannot build a segment: %w", err)
	}
	defer seg.Close()
	writer, ok := seg.(io.WriterTo)
	if !ok {
		return fmt.Errorf("cannot write a segment of type %T", seg)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := writer.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// add analyses a document and queues it for a segment. The builder
// analyses what it indexes again, unless the field says it is done
// (analyzedField).
func (ob *offlineBuild) add(d *document.Document) {
	for i, f := range d.Fields {
		if tf, ok := f.(*document.TextField); ok && tf.Options().IsIndexed() {
			d.Fields[i] = ob.analysis.field(tf)
		}
	}
	ob.pending = append(ob.pending, d)
	if len(ob.pending) == ob.batchDocs {
		ob.flush()
	}
}

// flush hands the pending documents to a worker.
func (ob *offlineBuild) flush() {
	if len(ob.pending) == 0 {
		return
	}
	ob.batches <- segmentBatch{ob.next, ob.pending}
	ob.next++
	ob.pending = make([]*document.Document, 0, ob.batchDocs)
}

// writeEmptyStore makes the store of a build that was given no document
// (its files hold no section): an empty index's, with the internal
// values in its root.
func (ob *offlineBuild) writeEmptyStore() error {
	dir := filepath.Join(ob.dir, "empty")
	idx, err := bleve.NewUsing(dir, ob.m, scorch.Name, scorch.Name, nil)
	if err != nil {
		return err
	}
	b := idx.NewBatch()
	for k, v := range ob.internal {
		b.SetInternal([]byte(k), v)
	}
	err = idx.Batch(b)
	if cerr := idx.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(filepath.Join(dir, "store"), filepath.Join(ob.dir, "store"))
}

// finish builds the last segment, merges them all into the store's one
// segment, and leaves the built store in ob.dir/store with internal (the
// manifest and folder records) in its root.
func (ob *offlineBuild) finish(internal map[string][]byte) error {
	ob.flush()
	ob.stopWorkers()
	defer ob.restoreGC()
	err := ob.err
	if err == nil {
		maps.Copy(ob.internal, internal)
		if ob.next == 0 {
			// Files without a section: no segment to build.
			err = ob.writeEmptyStore()
		} else {
			err = ob.writeStore()
		}
	}
	if err != nil {
		os.RemoveAll(ob.dir)
		return fmt.Errorf("cannot build the search index: %w", err)
	}
	return nil
}

// writeStore has scorch.Builder write the store with a placeholder
// document alone (its root names the one segment, with the internal
// values), then merges the build's segments into finalSegments files:
// the first takes the placeholder segment's place, the root names the
// others after it (addSegments).
func (ob *offlineBuild) writeStore() error {
	store := filepath.Join(ob.dir, "store")
	b, err := scorch.NewBuilder(map[string]any{"path": store, "buildPathPrefix": ob.dir, "internal": ob.internal})
	if err != nil {
		return err
	}
	if err := b.Index(document.NewDocument("placeholder")); err != nil {
		return err
	}
	if err := b.Close(); err != nil {
		return err
	}
	entries, err := os.ReadDir(store)
	if err != nil {
		return err
	}
	var first string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".zap") {
			if first != "" {
				return fmt.Errorf("the builder wrote two segments (%s, %s)", first, e.Name())
			}
			first = e.Name()
		}
	}
	if first == "" {
		return errors.New("the builder wrote no segment")
	}
	var paths []string
	for n := range ob.next {
		paths = append(paths, ob.segmentPath(n))
	}
	// The parts are runs of consecutive segments, so that the index's
	// documents stay in the order they were read (hits of equal score
	// come in that order), each merged on a core of its own.
	parts := make([][]string, 0, finalSegments)
	for i := range finalSegments {
		if part := paths[i*len(paths)/finalSegments : (i+1)*len(paths)/finalSegments]; len(part) > 0 {
			parts = append(parts, part)
		}
	}
	names := []string{first}
	id, err := strconv.ParseUint(strings.TrimSuffix(first, ".zap"), 16, 64)
	if err != nil {
		return fmt.Errorf("the builder wrote a segment of an unknown name (%s)", first)
	}
	for i := 1; i < len(parts); i++ {
		names = append(names, fmt.Sprintf("%012x.zap", id+uint64(i)))
	}
	errs := make([]error, len(parts))
	var merges sync.WaitGroup
	for i, part := range parts {
		merges.Go(func() {
			merged := filepath.Join(ob.dir, fmt.Sprintf("merged-%d.zap", i))
			if errs[i] = safely(func() error { return mergeSegments(part, merged) }); errs[i] == nil {
				errs[i] = os.Rename(merged, filepath.Join(store, names[i]))
			}
		})
	}
	merges.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return addSegments(store, names[1:])
}

// finalSegments is how many segments a full build leaves: merging the
// build's segments was a sixth of a build's CPU time, on one core while
// the other waited; two merges of half as much each take a core each.
// Queries read the segments of an index as one (the online index has
// several between its merges).
const finalSegments = buildWorkers

// mergeSegments merges the segment files paths (in that order) into one
// file at merged, without the placeholder that ends each (everyField).
func mergeSegments(paths []string, merged string) error {
	segs := make([]segment.Segment, 0, len(paths))
	defer func() {
		for _, s := range segs {
			s.Close()
		}
	}()
	drops := make([]*roaring.Bitmap, 0, len(paths))
	for _, p := range paths {
		s, err := segmentFormat.Open(p)
		if err != nil {
			return err
		}
		segs = append(segs, s)
		drops = append(drops, roaring.BitmapOf(uint32(s.Count()-1)))
	}
	_, _, err := segmentFormat.Merge(segs, drops, merged, nil, nil)
	return err
}

// addSegments adds the segment files names (in the store folder) to the
// store's root, after the one segment scorch.Builder named in it. The
// root (root.bolt) holds one snapshot, whose bucket holds the internal
// values ('i'), the metadata ('m') and a bucket per segment, keyed by
// its id in scorch's ascending varint (one byte, 0x88 plus the id, for
// ids up to 109) and naming its file ('p'); scorch reads the segments
// in the order of their keys, and numbers its next segment after the
// highest file name.
func addSegments(store string, names []string) error {
	if len(names) == 0 {
		return nil
	}
	root, err := util.OpenBolt(filepath.Join(store, "root.bolt"), 0o600, nil)
	if err != nil {
		return err
	}
	err = root.Update(func(tx *util.BoltTxImpl) error {
		snapshots := tx.Bucket(util.BoltSnapshotsBucket)
		if snapshots == nil {
			return errors.New("the builder's root has no snapshot")
		}
		epoch, _ := snapshots.Cursor().First()
		snapshot := snapshots.GetBucket(epoch)
		if snapshot == nil {
			return errors.New("the builder's root has no snapshot")
		}
		var last []byte
		c := snapshot.Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			if k[0] != util.BoltInternalKey[0] && k[0] != util.BoltMetaDataKey[0] {
				if last != nil {
					return errors.New("the builder's root names two segments")
				}
				last = bytes.Clone(k)
			}
		}
		if len(last) != 1 || int(last[0])+len(names) > segmentKeyMax {
			return fmt.Errorf("the builder's root names a segment of an unknown id (%x)", last)
		}
		for i, name := range names {
			seg, err := snapshot.CreateBucketIfNotExists([]byte{last[0] + byte(i+1)})
			if err != nil {
				return err
			}
			if err := seg.Put(util.BoltPathKey, []byte(name), nil); err != nil {
				return err
			}
		}
		return nil
	})
	return errors.Join(err, root.Close())
}

// segmentKeyMax is the last one-byte segment key of scorch's ascending
// varint (id 109).
const segmentKeyMax = 0x88 + 109

// abort drops the build.
func (ob *offlineBuild) abort() {
	ob.stopWorkers()
	ob.restoreGC()
	os.RemoveAll(ob.dir)
}

// stopWorkers ends the workers, once (a build that panicked after its
// finish began is aborted too).
func (ob *offlineBuild) stopWorkers() {
	if !ob.stopped {
		ob.stopped = true
		close(ob.batches)
		ob.workers.Wait()
	}
}

// restoreGC puts the collector's target back, once.
func (ob *offlineBuild) restoreGC() {
	if !ob.gcRestored {
		ob.gcRestored = true
		restoreGCAfterBuild()
	}
}

// install replaces the index's store with the one built, and opens it as
// the index was open (to search only, or to write). Other processes that
// have the old store open go on searching it (on Unix a file removed
// stays while it is open). Called with mu held and idxMu not held.
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
		ok, err := ix.openExisting(ix.readOnly)
		if err == nil && !ok {
			err = errors.New("the index just built does not open")
		}
		if err != nil {
			ix.damaged = true
			return fmt.Errorf("cannot open the search index just built in %s: %w", ix.opt.Dir, err)
		}
		// Whatever was wrong with the index it replaces is gone with it,
		// and the note of why it was built again has served (under serve,
		// later sessions share this index).
		ix.damaged, ix.note = false, ""
		ix.damage.Store(nil)
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

// everyFieldID is the id of every built segment's last document, which
// the merge drops (no document id starts with a NUL).
const everyFieldID = "\x00every-field"

// everyField is a document with every field the mapping has, each with
// the options newDocument gives it: the fields of a prose section with a
// line cut and of an observation line together. zap's merge copies
// postings only when its segments have the same fields with the same
// options, and a segment of observation lines alone has no heading, one
// of prose alone no day nor importance.
func (a analyzers) everyField() *document.Document {
	f := fileRef{root: &Root{ID: "placeholder"}, rel: "placeholder"}
	prose := a.newDocument(everyFieldID, f, Section{Kind: Prose, Heading: "placeholder", Text: "placeholder", cuts: []lineCut{{0, 1}}}, "placeholder")
	obs := a.newDocument(everyFieldID, f, Section{Kind: ObservationLine, Heading: "placeholder", Text: "placeholder"}, "placeholder")
	names := map[string]bool{}
	for _, f := range prose.Fields {
		names[f.Name()] = true
	}
	for _, f := range obs.Fields {
		if !names[f.Name()] {
			prose.AddField(f)
		}
	}
	return prose
}
