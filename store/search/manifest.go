package search

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
)

// fileState is the manifest's record of one indexed file: what it looked
// like when it was indexed and which documents it gave.
type fileState struct {
	Size  int64
	MTime int64 // UnixNano
	// Hash is the first 16 bytes of the SHA-256 of the indexed bytes: a
	// touched but unchanged file is not re-indexed, a changed one with the
	// same size and mtime is.
	Hash [16]byte
	// Indexed is how many bytes the documents cover. It is Size for a
	// Markdown file; for a transcript it stops after the last newline, so
	// that a torn last line is indexed once it is complete.
	Indexed int64
	// Docs are the file's documents, by first line, ascending (their ids
	// are key#L<line>). A manifest read from the index leaves them encoded
	// (docsRaw, docsN) until a writer needs them (docList): a search that
	// only compares sizes and mtimes skips 130,000 of them at scale 100.
	Docs    []docRef
	docsRaw []byte
	docsN   uint64

	// enc caches the entry's encoding (the manifest is written with every
	// batch, most entries unchanged); nil after a change.
	enc []byte
}

// docRef is one document of a file: the line it starts on and a hash of
// what it holds, to tell an unchanged section from a changed one.
type docRef struct {
	Line int32
	Sum  uint64
}

// sectionSum is the FNV-1a hash of everything a section's document is
// made of besides its file: kind, heading and text.
func sectionSum(s Section) uint64 {
	h := fnv.New64a()
	h.Write([]byte{byte(s.Kind)})
	h.Write([]byte(s.Heading))
	h.Write([]byte{0})
	h.Write([]byte(s.Text))
	return h.Sum64()
}

// manifest maps a file key (root id + ":" + relative path) to its state.
// It is stored inside the index (an internal key written in the same batch
// as the documents), so the two never disagree after a crash.
type manifest map[string]*fileState

const manifestMagic = "CVTM\x03"

// manifestInProgress stands in for the manifest while a run of several
// batches is under way (see writer.commit); it does not decode.
const manifestInProgress = "CVTM in progress"

// encode writes the manifest in a compact binary form. Entries are in
// map order: the manifest is written whole with every batch, and sorting
// thousands of keys each time costs more than it is worth.
func (m manifest) encode() []byte {
	size := len(manifestMagic) + binary.MaxVarintLen64
	for k, f := range m {
		if f.enc == nil {
			f.enc = f.appendEntry(nil, k)
		}
		size += len(f.enc)
	}
	b := make([]byte, 0, size)
	b = append(b, manifestMagic...)
	b = binary.AppendUvarint(b, uint64(len(m)))
	for _, f := range m {
		b = append(b, f.enc...)
	}
	return b
}

func (f *fileState) appendEntry(b []byte, key string) []byte {
	b = binary.AppendUvarint(b, uint64(len(key)))
	b = append(b, key...)
	b = binary.AppendVarint(b, f.Size)
	b = binary.AppendVarint(b, f.MTime)
	b = binary.AppendVarint(b, f.Indexed)
	b = append(b, f.Hash[:]...)
	// The documents go last, after their count and their length in bytes,
	// so that a reader can step over them (see docList).
	if f.docsRaw != nil {
		b = binary.AppendUvarint(b, f.docsN)
		b = binary.AppendUvarint(b, uint64(len(f.docsRaw)))
		return append(b, f.docsRaw...)
	}
	b = binary.AppendUvarint(b, uint64(len(f.Docs)))
	var docs []byte
	prev := int32(0)
	for _, d := range f.Docs {
		docs = binary.AppendUvarint(docs, uint64(d.Line-prev))
		docs = binary.LittleEndian.AppendUint64(docs, d.Sum)
		prev = d.Line
	}
	b = binary.AppendUvarint(b, uint64(len(docs)))
	return append(b, docs...)
}

// docList is the file's documents, decoded from the manifest's bytes on
// first use; an error means the manifest is damaged.
func (f *fileState) docList() ([]docRef, error) {
	if f.docsRaw == nil {
		return f.Docs, nil
	}
	r := reader{b: f.docsRaw}
	docs := make([]docRef, 0, f.docsN)
	line := int64(0)
	for range f.docsN {
		d := r.uvarint()
		line += int64(d)
		if d == 0 && len(docs) > 0 || line > 1<<31-1 {
			r.err = errManifest
		}
		sum := r.bytes(8)
		if r.err != nil {
			return nil, r.err
		}
		docs = append(docs, docRef{int32(line), binary.LittleEndian.Uint64(sum)})
	}
	if len(r.b) != 0 {
		return nil, errManifest
	}
	f.Docs, f.docsRaw, f.docsN = docs, nil, 0
	return docs, nil
}

var errManifest = errors.New("the search index's manifest is damaged")

// decodeManifest reads what encode wrote. Anything else is an error, never
// a panic: the index is then rebuilt.
func decodeManifest(b []byte) (manifest, error) {
	var m manifest
	dup := false
	_, err := scanManifest(b, func(n uint64) { m = make(manifest, n) }, func(e *manifestEntry) bool {
		key := string(e.key)
		if _, dup = m[key]; dup {
			return false
		}
		f := &fileState{Size: e.size, MTime: e.mtime, Indexed: e.indexed, docsN: e.docsN, docsRaw: e.docsRaw, enc: e.enc}
		copy(f.Hash[:], e.hash)
		if f.docsN == 0 {
			f.Docs, f.docsRaw = []docRef{}, nil
		}
		m[key] = f
		return true
	})
	if err != nil {
		return nil, err
	}
	if dup {
		return nil, fmt.Errorf("%w: a file is listed twice", errManifest)
	}
	return m, nil
}

// manifestEntry is one file's record as it lies in an encoded manifest;
// its slices are of the encoding.
type manifestEntry struct {
	key                  []byte
	size, mtime, indexed int64
	hash                 []byte
	docsN                uint64
	docsRaw              []byte
	// enc is the whole entry: unchanged, it is written back as it was
	// read.
	enc []byte
}

// scanManifest checks what encode wrote and passes each entry in turn to
// visit, allocating nothing; sized is told the number of entries first.
// Anything else than encode's output is an error, never a panic (a key
// listed twice is decodeManifest's to find). visit returning false stops
// the scan; n is then the entries visited before it.
func scanManifest(b []byte, sized func(n uint64), visit func(e *manifestEntry) bool) (n uint64, err error) {
	// Entries keep slices of b (see docList): not copied, it is 2 MB at
	// scale 100.
	rest, ok := bytes.CutPrefix(b, []byte(manifestMagic))
	if !ok {
		return 0, errManifest
	}
	r := reader{b: rest}
	total := r.uvarint()
	if r.err != nil || total > uint64(len(r.b)) {
		return 0, errManifest
	}
	if sized != nil {
		sized(total)
	}
	var e manifestEntry
	for ; n < total; n++ {
		entry := r.b
		e.key = r.bytes(r.uvarint())
		e.size, e.mtime, e.indexed = r.varint(), r.varint(), r.varint()
		e.hash = r.bytes(uint64(len(fileState{}.Hash)))
		e.docsN = r.uvarint()
		e.docsRaw = r.bytes(r.uvarint())
		// Each document takes 9 to 13 bytes.
		if r.err != nil || e.docsN*9 > uint64(len(e.docsRaw)) || e.docsN*13 < uint64(len(e.docsRaw)) {
			return n, errManifest
		}
		e.enc = entry[:len(entry)-len(r.b)]
		if len(e.key) == 0 || e.size < 0 || e.indexed < 0 || e.indexed > e.size {
			return n, errManifest
		}
		if !visit(&e) {
			return n, nil
		}
	}
	if len(r.b) != 0 {
		return n, fmt.Errorf("%w: %d bytes after the last file", errManifest, len(r.b))
	}
	return n, nil
}

// reader reads varints and byte runs, remembering the first error.
type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	r.skip(n)
	return v
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.b)
	r.skip(n)
	return v
}

// skip moves past a varint of n bytes (n <= 0: there was none).
func (r *reader) skip(n int) {
	switch {
	case r.err != nil:
	case n <= 0:
		r.err = errManifest
	default:
		r.b = r.b[n:]
	}
}

func (r *reader) bytes(n uint64) []byte {
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)) {
		r.err = errManifest
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}
