package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"clawvault-tui/store/regfile"
)

// Replacing a file that other programs write at the same moment (an agent
// appending to MEMORY.md, an editor saving it by rename) without losing
// their bytes. A check of the file followed by a rename over it leaves a
// window in which a version renamed in, or bytes appended, are renamed
// away unseen. Replace closes it:
//
//   - The new version is exchanged with the file in one step (Linux's
//     renameat2 RENAME_EXCHANGE, macOS's RENAME_SWAP): the version it
//     replaced (displaced) keeps existing, under a name of ours.
//   - The displaced version is read at once, and it is final when nobody
//     can write to it any more: on Linux when the kernel grants a read
//     lease, which it does only when no descriptor is open for writing on
//     it anywhere; where leases cannot be had, when its size and time
//     stand still for a moment.
//   - If it is the version the new one was made from, that is all. If not
//     (another writer came in between, or still has it open), it is
//     exchanged back at once, the very file their descriptors write to;
//     the new version is merged with theirs as it is now and tried again,
//     until a try finds what it expected. Their version is therefore out
//     of place only for the instant of a look, not while a merge is
//     written. Where the two clash, theirs stays and ours does not.
//
// Where names cannot be exchanged, the current file gets a second name (a
// hard link) and is renamed over only if it is still the file linked: the
// window is then the few instructions between that check and the rename.

// ErrNoExchange says the system or the file system cannot exchange two
// names in one step.
var ErrNoExchange = errors.New("no atomic exchange of two files here")

// Swapper is what a WriteFS offers to replace a file without a window;
// OSWriter does. A WriteFS without it (a test's) replaces by rename.
type Swapper interface {
	// Exchange swaps the files named a and b in one step, or returns
	// ErrNoExchange.
	Exchange(a, b string) error
	// Link gives oldname's file the name newname too.
	Link(oldname, newname string) error
}

func (osWriter) Exchange(a, b string) error         { return exchange(a, b) }
func (osWriter) Link(oldname, newname string) error { return os.Link(oldname, newname) }

// displacedName is the name a displaced version has while it is looked
// at: beside the file, recognisably ours, and not a temp name, which a
// sweep removes once this process is gone (were it killed in that
// instant, another writer's version would survive it).
func displacedName(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+tempTag+"displaced-"+strconv.Itoa(os.Getpid())+"-"+strconv.FormatUint(rand.Uint64(), 36))
}

// Replacement is a file to replace with content made from what it held.
type Replacement struct {
	// Path is the file, symbolic links resolved (the caller confines it).
	Path string
	// Existed says there was a file when it was read; Read is what it
	// held then, the version Want was made from.
	Existed bool
	Read    []byte
	Want    []byte
	// Perm is a new file's mode; an existing file keeps its own.
	Perm fs.FileMode
	// Limit bounds another writer's version read back (0: 64 MiB).
	Limit int64
	// Merge applies the changes theirs made to base onto ours; ok is
	// false when the two clash.
	Merge func(base, ours, theirs []byte) (merged []byte, ok bool)
	// SettleWait is DefaultSettleWait unless set.
	SettleWait time.Duration
}

// Replaced is what a Replace did.
type Replaced struct {
	// Final is what the file holds now, as far as this process can know.
	Final []byte
	// Merged: another writer changed the file meanwhile; Final holds
	// their change and ours.
	Merged bool
	// Clash: another writer's change clashes with ours; theirs is in
	// place, ours is not.
	Clash bool
	// HeldOpen: another program kept the file open for writing for the
	// whole settle wait; its file is in place, ours is not.
	HeldOpen bool
	// Gone: the file was removed meanwhile; nothing was put in its place.
	Gone bool
}

// DefaultSettleWait is how long Replace waits for a program that keeps
// the file open for writing to close it. Writers that append open, write
// and close: this is for one that keeps the file open.
const DefaultSettleWait = 2 * time.Second

// settleQuiet is how long a displaced version must stand still where no
// lease says that nobody writes it.
const settleQuiet = 20 * time.Millisecond

// maxRounds bounds the tries of one Replace under writers that never stop.
const maxRounds = 64

// Replace writes rp.Want over rp.Path as described above. The error is for
// what could not be done at all; a clash or a writer holding the file is
// in Replaced.
func Replace(w WriteFS, rp Replacement) (Replaced, error) {
	if rp.Limit <= 0 {
		rp.Limit = 64 << 20
	}
	if rp.SettleWait <= 0 {
		rp.SettleWait = DefaultSettleWait
	}
	r := &replacer{w: w, rp: rp}
	r.sw, _ = w.(Swapper)
	st, err := StageFile(w, rp.Path, rp.Want, rp.Perm)
	if err != nil {
		return Replaced{}, err
	}
	defer func() { _ = w.SyncDir(filepath.Dir(rp.Path)) }()
	if !rp.Existed {
		return r.create(st.Temp)
	}
	return r.run(rp.Read, st.Temp, rp.Want)
}

type replacer struct {
	w          WriteFS
	sw         Swapper
	rp         Replacement
	out        Replaced
	noExchange bool
	// heldSince is when a writer was first seen holding the file open.
	heldSince time.Time
}

// run tries to put want (staged under temp) in place of a file expected
// to hold expect, merging with what other writers do until a try finds
// what it expected.
func (r *replacer) run(expect []byte, temp string, want []byte) (Replaced, error) {
	for round := 1; ; round++ {
		r.awaitNoWriter()
		t, err := r.try(temp, expect)
		switch {
		case err != nil || r.out.Gone:
			return r.out, err
		case t.ok:
			r.out.Final = want
			return r.out, nil
		}
		// Theirs is in place again: merge with it as it is now.
		live, err := regfile.ReadFileLimit(r.rp.Path, r.rp.Limit)
		if errors.Is(err, fs.ErrNotExist) {
			r.out.Gone = true
			return r.out, nil
		}
		if err != nil {
			return r.out, err
		}
		merged, ok := r.mergeTry(expect, want, live, t)
		if !ok || r.heldTooLong() || round == maxRounds {
			return r.stop(live, ok)
		}
		st, err := StageFile(r.w, r.rp.Path, merged, r.rp.Perm)
		if err != nil {
			return r.out, err
		}
		r.out.Merged = true
		expect, temp, want = live, st.Temp, merged
	}
}

// mergeTry merges want (made from expect) with the file as it is now
// (live), then with what a failed try brought out: ours, written to in
// the instant it was in place, and a version of theirs that could not go
// back because another writer's had replaced ours meanwhile.
func (r *replacer) mergeTry(expect, want, live []byte, t tried) ([]byte, bool) {
	merged, ok := r.rp.Merge(expect, want, live)
	if ok && t.ours != nil && !bytes.Equal(t.ours, want) {
		merged, ok = r.rp.Merge(want, merged, t.ours)
	}
	if ok && t.pending != nil {
		merged, ok = r.rp.Merge(expect, merged, t.pending)
	}
	return merged, ok
}

// stop ends a Replace with theirs in place: their change clashes with
// ours (ok false), a writer kept the file open, or it never stood still.
func (r *replacer) stop(live []byte, ok bool) (Replaced, error) {
	r.out.Final, r.out.Merged = live, false
	r.out.Clash = !ok
	r.out.HeldOpen = ok && r.heldTooLong()
	if ok && !r.out.HeldOpen {
		return r.out, fmt.Errorf("%s kept changing while it was saved (%d tries): it was left as the other program wrote it", r.rp.Path, maxRounds)
	}
	return r.out, nil
}

// tried is the outcome of a try that did not find what it expected.
type tried struct {
	ok bool
	// ours is our version as it came back (nil when another writer's
	// version had replaced it).
	ours []byte
	// pending is the version that was displaced and could not go back
	// (another writer's replaced ours meanwhile): its content is merged
	// into the next try.
	pending []byte
}

// try puts the file staged as temp in place and looks at the version it
// displaced: ok when that is final and is expect (it is then removed).
// Otherwise that version goes back at once, unless another writer has
// replaced ours meanwhile: theirs is newer, and stays. A file removed
// meanwhile is Gone.
func (r *replacer) try(temp string, expect []byte) (tried, error) {
	ours := fileID(temp)
	held, err := r.swap(temp)
	if err != nil {
		_ = os.Remove(temp)
		if errors.Is(err, fs.ErrNotExist) {
			r.out.Gone = true
			return tried{}, nil
		}
		return tried{}, err
	}
	if held == "" { // nothing says what was replaced (no exchange, no links)
		return tried{ok: true}, nil
	}
	d, final, peekErr := r.peek(held)
	if peekErr == nil && final && bytes.Equal(d, expect) {
		_ = os.Remove(held)
		return tried{ok: true}, nil
	}
	if peekErr == nil && !final && r.heldSince.IsZero() {
		r.heldSince = time.Now()
	}
	t, err := r.putBack(held, ours)
	if err == nil && peekErr != nil {
		err = fmt.Errorf("%s was replaced meanwhile by something that cannot be read, and was left as it is: %w", r.rp.Path, peekErr)
	}
	return t, err
}

// putBack puts the displaced version held back in place of ours (the file
// whose identity is ours), and reads what came out. If what came out is
// not ours, another writer had replaced ours: its version goes back in,
// and the displaced one is read and removed (tried.pending).
func (r *replacer) putBack(held string, ours os.FileInfo) (tried, error) {
	if ours != nil && !sameAs(r.rp.Path, ours) {
		return tried{pending: r.settleAndRemove(held)}, nil
	}
	back, err := r.swap(held)
	if err != nil {
		return tried{}, fmt.Errorf("%s was replaced and could not be put back: the other program's version is kept as %s: %w", r.rp.Path, held, err)
	}
	if back == "" || ours == nil || sameAs(back, ours) {
		// A writer may have opened ours in the instant it was in place:
		// what it writes is read before ours goes.
		return tried{ours: r.settleAndRemove(back)}, nil
	}
	// Replaced between the look and the swap: theirs goes back in.
	again, err := r.swap(back)
	if err != nil {
		return tried{}, fmt.Errorf("%s was replaced twice meanwhile, and another program's version is kept as %s: %w", r.rp.Path, back, err)
	}
	return tried{pending: r.settleAndRemove(again)}, nil
}

// settleAndRemove reads a version of ours once it is final (settle) and
// removes it; nothing for "".
func (r *replacer) settleAndRemove(name string) []byte {
	if name == "" {
		return nil
	}
	data := r.settle(name)
	_ = os.Remove(name)
	return data
}

// fileID is the identity of the file named name (nil if none).
func fileID(name string) os.FileInfo {
	fi, err := os.Lstat(name)
	if err != nil {
		return nil
	}
	return fi
}

// sameAs says whether name is the file fi describes.
func sameAs(name string, fi os.FileInfo) bool {
	now, err := os.Lstat(name)
	return err == nil && os.SameFile(now, fi)
}

// heldTooLong says a writer has kept the file open for the settle wait.
func (r *replacer) heldTooLong() bool {
	return !r.heldSince.IsZero() && time.Since(r.heldSince) > r.rp.SettleWait
}

// create puts a new file in place where there was none: a hard link
// fails if another writer made one meanwhile, which is then merged with.
func (r *replacer) create(temp string) (Replaced, error) {
	err := r.placeNew(temp)
	_ = os.Remove(temp)
	switch {
	case err == nil:
		r.out.Final = r.rp.Want
		return r.out, nil
	case !errors.Is(err, fs.ErrExist):
		return r.out, err
	}
	// Another writer made it meanwhile: theirs is the version to merge with.
	theirs, err := regfile.ReadFileLimit(r.rp.Path, r.rp.Limit)
	if err != nil {
		return r.out, err
	}
	merged, ok := r.rp.Merge(r.rp.Read, r.rp.Want, theirs)
	if !ok {
		r.out.Clash, r.out.Final = true, theirs
		return r.out, nil
	}
	st, err := StageFile(r.w, r.rp.Path, merged, r.rp.Perm)
	if err != nil {
		return r.out, err
	}
	r.out.Merged = true
	return r.run(theirs, st.Temp, merged)
}

// placeNew gives the staged file the file's name unless a file has it:
// by a hard link, which fails if one does; where there are none, by a
// check and a rename.
func (r *replacer) placeNew(temp string) error {
	if r.sw != nil {
		err := r.sw.Link(temp, r.rp.Path)
		if !linksUnsupported(err) {
			return err
		}
	}
	if _, err := os.Lstat(r.rp.Path); !errors.Is(err, fs.ErrNotExist) {
		return &os.LinkError{Op: "create", Old: temp, New: r.rp.Path, Err: fs.ErrExist}
	}
	return r.w.Rename(temp, r.rp.Path)
}

// swap puts the file named name in place of the file and returns the name
// the replaced one now has ("" where nothing can say: no exchange and no
// hard links).
func (r *replacer) swap(name string) (string, error) {
	path := r.rp.Path
	if r.sw == nil {
		return "", r.w.Rename(name, path)
	}
	if !r.noExchange {
		err := r.sw.Exchange(name, path)
		if err == nil {
			return r.keepDisplaced(name), nil
		}
		if !errors.Is(err, ErrNoExchange) {
			return "", err
		}
		r.noExchange = true
	}
	return r.linkAndRename(name)
}

// keepDisplaced renames a displaced version from a temp name of ours to a
// displaced name (see displacedName), and returns where it is.
func (r *replacer) keepDisplaced(name string) string {
	kept := displacedName(r.rp.Path)
	if err := r.w.Rename(name, kept); err != nil {
		return name // still ours to read; only a crash now would lose it
	}
	return kept
}

// linkAndRename replaces the file where names cannot be exchanged: it
// links the current file to a name of ours, checks the file is still the
// one linked, and renames name over it. Only a writer that renames in
// between the check and the rename goes unseen.
func (r *replacer) linkAndRename(name string) (string, error) {
	path := r.rp.Path
	for range 8 {
		hold := displacedName(path)
		if err := r.sw.Link(path, hold); err != nil {
			if !linksUnsupported(err) {
				return "", err
			}
			return "", r.w.Rename(name, path) // no hard links here
		}
		if !sameFile(path, hold) {
			_ = os.Remove(hold) // renamed over meanwhile: link the new one
			continue
		}
		if err := r.w.Rename(name, path); err != nil {
			_ = os.Remove(hold)
			return "", err
		}
		return hold, nil
	}
	return "", fmt.Errorf("%s is being replaced too fast to replace it safely", path)
}

// sameFile says whether two names are one file.
func sameFile(a, b string) bool {
	fa, err1 := os.Lstat(a)
	fb, err2 := os.Lstat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// linksUnsupported says a link failed for want of hard links (a file
// system without them; another owner's file where protected_hardlinks
// forbids it), not because a name exists or is missing.
func linksUnsupported(err error) bool {
	return err != nil && !errors.Is(err, fs.ErrExist) && !errors.Is(err, fs.ErrNotExist)
}

// awaitNoWriter waits a little, before a swap, until nobody has the file
// open for writing (a read lease is granted): an append through an open
// descriptor then lands before the swap, not in the version displaced.
// A writer still at it is dealt with after the swap.
func (r *replacer) awaitNoWriter() {
	f, err := regfile.OpenNoFollow(r.rp.Path)
	if err != nil {
		return
	}
	defer f.Close()
	deadline := time.Now().Add(min(r.rp.SettleWait, 250*time.Millisecond))
	for pause := 50 * time.Microsecond; time.Now().Before(deadline); pause = min(2*pause, time.Millisecond) {
		granted, err := tryReadLease(f)
		if granted {
			releaseLease(f)
			return
		}
		if err != nil {
			return
		}
		time.Sleep(pause)
	}
}

// peek reads a displaced version, and says whether it is final: nobody
// has it open for writing (a lease was granted), or, where leases cannot
// be had, it stood still for settleQuiet. Anything but a regular file
// (a FIFO, a link, a folder swapped in) is an error, never read.
func (r *replacer) peek(name string) (data []byte, final bool, err error) {
	f, err := regfile.OpenNoFollow(name)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	granted, leaseErr := tryReadLease(f)
	if granted {
		data, err = readLimited(f, name, r.rp.Limit)
		releaseLease(f)
		return data, true, err
	}
	if leaseErr == nil { // someone has it open for writing
		data, err = readLimited(f, name, r.rp.Limit)
		return data, false, err
	}
	var still stillness
	for deadline := time.Now().Add(4 * settleQuiet); !still.check(f) && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	data, err = readLimited(f, name, r.rp.Limit)
	return data, still.check(f), err
}

// settle reads the file named name once it is final (see peek), waiting
// for a writer that has it open to close it, up to the settle wait.
func (r *replacer) settle(name string) []byte {
	deadline := time.Now().Add(r.rp.SettleWait)
	for pause := 50 * time.Microsecond; ; pause = min(2*pause, 2*time.Millisecond) {
		data, final, err := r.peek(name)
		if final || err != nil || time.Now().After(deadline) {
			return data
		}
		time.Sleep(pause)
	}
}

// stillness tells when a file has not changed (size, modification time)
// for settleQuiet.
type stillness struct {
	size  int64
	mtime time.Time
	since time.Time
}

func (s *stillness) check(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	now := time.Now()
	if s.since.IsZero() || fi.Size() != s.size || !fi.ModTime().Equal(s.mtime) {
		s.size, s.mtime, s.since = fi.Size(), fi.ModTime(), now
		return false
	}
	return now.Sub(s.since) >= settleQuiet
}

// readLimited reads f from its start, at most limit bytes.
func readLimited(f *os.File, name string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.NewSectionReader(f, 0, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("%s is more than the %d bytes read back", name, limit)
	}
	return data, err
}
