package search

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
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
	// are key#L<line>).
	Docs []docRef

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

const manifestMagic = "CVTM\x02"

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
	b = binary.AppendUvarint(b, uint64(len(f.Docs)))
	prev := int32(0)
	for _, d := range f.Docs {
		b = binary.AppendUvarint(b, uint64(d.Line-prev))
		b = binary.LittleEndian.AppendUint64(b, d.Sum)
		prev = d.Line
	}
	return b
}

var errManifest = errors.New("the search index's manifest is damaged")

// decodeManifest reads what encode wrote. Anything else is an error, never
// a panic: the index is then rebuilt.
func decodeManifest(b []byte) (manifest, error) {
	rest, ok := strings.CutPrefix(string(b), manifestMagic)
	if !ok {
		return nil, errManifest
	}
	r := reader{b: []byte(rest)}
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.b)) {
		return nil, errManifest
	}
	m := make(manifest, n)
	for range n {
		klen := r.uvarint()
		key := string(r.bytes(klen))
		f := &fileState{Size: r.varint(), MTime: r.varint(), Indexed: r.varint()}
		copy(f.Hash[:], r.bytes(uint64(len(f.Hash))))
		count := r.uvarint()
		if r.err != nil || count > uint64(len(r.b)) {
			return nil, errManifest
		}
		f.Docs = make([]docRef, 0, count)
		line := int64(0)
		for range count {
			d := r.uvarint()
			line += int64(d)
			if d == 0 && len(f.Docs) > 0 || line > 1<<31-1 {
				r.err = errManifest
			}
			sum := r.bytes(8)
			if r.err != nil {
				break
			}
			f.Docs = append(f.Docs, docRef{int32(line), binary.LittleEndian.Uint64(sum)})
		}
		if r.err != nil {
			return nil, errManifest
		}
		if _, dup := m[key]; dup || key == "" || f.Size < 0 || f.Indexed < 0 || f.Indexed > f.Size {
			return nil, errManifest
		}
		m[key] = f
	}
	if len(r.b) != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the last file", errManifest, len(r.b))
	}
	return m, nil
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
