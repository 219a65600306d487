package production

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// MaxHeader bounds the JSON header of an archive this reader accepts.
const MaxHeader = 64 << 20

// AsarError says why a file is not a readable asar archive.
type AsarError struct {
	Path   string
	Reason string
}

func (e *AsarError) Error() string { return e.Path + ": not a readable asar archive: " + e.Reason }

// Integrity is a file's integrity record in the header.
type Integrity struct {
	Algorithm string   `json:"algorithm"`
	Hash      string   `json:"hash"`
	BlockSize int64    `json:"blockSize"`
	Blocks    []string `json:"blocks"`
}

// node is one header entry: a directory (Files), a link, or a file.
type node struct {
	Files      map[string]*node `json:"files"`
	Size       *json.Number     `json:"size"`
	Offset     string           `json:"offset"`
	Unpacked   bool             `json:"unpacked"`
	Executable bool             `json:"executable"`
	Link       *string          `json:"link"`
	Integrity  *Integrity       `json:"integrity"`
}

// Entry is one file of an archive.
type Entry struct {
	Path       string     `json:"path"` // slash-separated, relative to the archive root
	Size       int64      `json:"size"`
	Offset     int64      `json:"offset"` // from the start of the data (after the header); -1 for unpacked
	Unpacked   bool       `json:"unpacked,omitempty"`
	Executable bool       `json:"executable,omitempty"`
	Link       string     `json:"link,omitempty"`
	Integrity  *Integrity `json:"-"`
}

// Archive is a parsed asar header.
type Archive struct {
	Path       string
	Size       int64  // of the archive file
	HeaderSize int64  // of the header pickle (the second uint32)
	DataOffset int64  // where file data begins: 8 + HeaderSize
	HeaderJSON string // the header string, as Electron hashes it
	Files      []Entry
	Dirs       int
}

// HeaderHash is the SHA-256 of the header string: what Electron's embedded
// asar integrity (ElectronAsarIntegrity) records.
func (a *Archive) HeaderHash() string {
	sum := sha256.Sum256([]byte(a.HeaderJSON))
	return hex.EncodeToString(sum[:])
}

// OpenArchive reads and checks the header of the asar at p. It reads the
// header only; file data stays on disk.
func OpenArchive(p string) (*Archive, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	bad := func(format string, args ...any) error {
		return &AsarError{Path: p, Reason: fmt.Sprintf(format, args...)}
	}
	if st.IsDir() {
		return nil, bad("it is a directory")
	}
	// The size pickle: uint32 payload size (4), uint32 header pickle size.
	var sizePickle [8]byte
	if n, _ := io.ReadFull(f, sizePickle[:]); n < 8 {
		return nil, bad("the file has %d bytes, fewer than the 8-byte size pickle", n)
	}
	if got := binary.LittleEndian.Uint32(sizePickle[0:4]); got != 4 {
		return nil, bad("the size pickle's payload size is %d, not 4", got)
	}
	headerSize := int64(binary.LittleEndian.Uint32(sizePickle[4:8]))
	if headerSize < 8 || headerSize > MaxHeader {
		return nil, bad("the header size %d is outside 8..%d", headerSize, MaxHeader)
	}
	if 8+headerSize > st.Size() {
		return nil, bad("the header is truncated: it says %d bytes but the file has %d after the size pickle", headerSize, st.Size()-8)
	}
	head := make([]byte, headerSize)
	if _, err := io.ReadFull(f, head); err != nil {
		return nil, bad("reading the header: %v", err)
	}
	payload := int64(binary.LittleEndian.Uint32(head[0:4]))
	strLen := int64(binary.LittleEndian.Uint32(head[4:8]))
	if payload+4 > headerSize || strLen+4 > payload {
		return nil, bad("the header pickle is inconsistent (payload %d, string %d, header %d)", payload, strLen, headerSize)
	}
	js := head[8 : 8+strLen]
	a := &Archive{Path: p, Size: st.Size(), HeaderSize: headerSize, DataOffset: 8 + headerSize, HeaderJSON: string(js)}
	var root node
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil {
		return nil, bad("the header is not valid JSON: %v", err)
	}
	if root.Files == nil {
		return nil, bad("the header has no root \"files\" object")
	}
	if err := a.walk("", &root, 0); err != nil {
		return nil, bad("%v", err)
	}
	sort.Slice(a.Files, func(i, j int) bool { return a.Files[i].Path < a.Files[j].Path })
	return a, nil
}

func (a *Archive) walk(prefix string, n *node, depth int) error {
	if depth > 256 {
		return fmt.Errorf("directories nest deeper than 256 at %q", prefix)
	}
	for name, c := range n.Files {
		if c == nil {
			return fmt.Errorf("entry %q is null", path.Join(prefix, name))
		}
		if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\\") {
			return fmt.Errorf("entry name %q in %q is not a plain name", name, prefix)
		}
		p := path.Join(prefix, name)
		switch {
		case c.Files != nil:
			a.Dirs++
			if err := a.walk(p, c, depth+1); err != nil {
				return err
			}
		case c.Link != nil:
			a.Files = append(a.Files, Entry{Path: p, Link: *c.Link, Offset: -1})
		default:
			if c.Size == nil {
				return fmt.Errorf("file %q has no size", p)
			}
			size, err := strconv.ParseInt(c.Size.String(), 10, 64)
			if err != nil || size < 0 {
				return fmt.Errorf("file %q has size %q", p, c.Size.String())
			}
			e := Entry{Path: p, Size: size, Offset: -1, Unpacked: c.Unpacked, Executable: c.Executable, Integrity: c.Integrity}
			if !c.Unpacked {
				off, err := strconv.ParseInt(c.Offset, 10, 64)
				if err != nil || off < 0 {
					return fmt.Errorf("file %q has offset %q", p, c.Offset)
				}
				e.Offset = off
			}
			a.Files = append(a.Files, e)
		}
	}
	return nil
}

// Find returns the entry at the slash-separated path p, following no links.
func (a *Archive) Find(p string) *Entry {
	p = strings.TrimPrefix(path.Clean("/"+p), "/")
	i := sort.Search(len(a.Files), func(i int) bool { return a.Files[i].Path >= p })
	if i < len(a.Files) && a.Files[i].Path == p {
		return &a.Files[i]
	}
	return nil
}

// UnpackedDir is where the archive's unpacked files live.
func (a *Archive) UnpackedDir() string { return a.Path + ".unpacked" }

// Open returns a reader of an entry's bytes: a section of the archive, or
// the file under the .unpacked folder. The caller closes it.
func (a *Archive) Open(e *Entry) (io.ReadCloser, error) {
	if e.Unpacked {
		f, err := os.Open(filepath.Join(a.UnpackedDir(), filepath.FromSlash(e.Path)))
		if err != nil {
			return nil, err
		}
		return f, nil
	}
	if e.Offset+e.Size > a.Size-a.DataOffset {
		return nil, fmt.Errorf("%s: its bytes (%d at %d) run past the end of the archive", e.Path, e.Size, e.Offset)
	}
	f, err := os.Open(a.Path)
	if err != nil {
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{io.NewSectionReader(f, a.DataOffset+e.Offset, e.Size), f}, nil
}

// Mismatch is a file whose bytes do not match its integrity record.
type Mismatch struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// IntegrityResult sums up an integrity pass.
type IntegrityResult struct {
	Checked    int        `json:"checked"`           // files whose hashes were compared
	NoRecord   int        `json:"without_integrity"` // files with no integrity record
	Bytes      int64      `json:"bytes_hashed"`
	Mismatches []Mismatch `json:"mismatches,omitempty"`
	Missing    []string   `json:"missing_unpacked,omitempty"` // unpacked files absent from .unpacked
}

// hashBuf is the copy buffer size: small, so memory stays flat whatever the
// archive's size.
const hashBuf = 256 << 10

// CheckIntegrity hashes every file that has an integrity record (and
// stats every unpacked file) in bounded chunks, comparing the whole-file
// SHA-256 and each block's SHA-256 with the header.
func (a *Archive) CheckIntegrity(ctx context.Context) (*IntegrityResult, error) {
	r := &IntegrityResult{}
	// One handle on the archive serves every packed file (positioned reads).
	f, err := os.Open(a.Path)
	if err != nil {
		return r, err
	}
	defer f.Close()
	type outcome struct {
		reason string
		n      int64
	}
	var hashed []int // indexes of files to hash, in order
	for i := range a.Files {
		e := &a.Files[i]
		if e.Link != "" {
			continue
		}
		if e.Unpacked {
			st, err := os.Stat(filepath.Join(a.UnpackedDir(), filepath.FromSlash(e.Path)))
			if err != nil {
				r.Missing = append(r.Missing, e.Path)
				continue
			}
			if st.Size() != e.Size {
				r.Mismatches = append(r.Mismatches, Mismatch{e.Path, fmt.Sprintf("unpacked file has %d bytes, the header says %d", st.Size(), e.Size)})
				continue
			}
		}
		if e.Integrity == nil {
			r.NoRecord++
			continue
		}
		hashed = append(hashed, i)
	}
	// Two workers, each with its own buffer, take files in turn; results
	// land in per-file slots so the report's order does not depend on
	// scheduling.
	out := make([]outcome, len(hashed))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range integrityWorkers {
		wg.Go(func() {
			buf := make([]byte, hashBuf)
			for {
				k := int(next.Add(1) - 1)
				if k >= len(hashed) || ctx.Err() != nil {
					return
				}
				reason, n, err := a.checkOne(f, &a.Files[hashed[k]], buf)
				if err != nil {
					reason = err.Error()
				}
				out[k] = outcome{reason, n}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return r, err
	}
	for k, i := range hashed {
		r.Bytes += out[k].n
		r.Checked++
		if out[k].reason != "" {
			r.Mismatches = append(r.Mismatches, Mismatch{a.Files[i].Path, out[k].reason})
		}
	}
	return r, nil
}

// integrityWorkers hash files side by side (the machine this targets has
// two cores; hashing is CPU-bound once the archive is in the page cache).
const integrityWorkers = 2

func (a *Archive) checkOne(archive io.ReaderAt, e *Entry, buf []byte) (string, int64, error) {
	in := e.Integrity
	if !strings.EqualFold(in.Algorithm, "SHA256") {
		return fmt.Sprintf("integrity algorithm %q is not SHA256", in.Algorithm), 0, nil
	}
	if in.BlockSize <= 0 {
		return fmt.Sprintf("integrity blockSize %d is not positive", in.BlockSize), 0, nil
	}
	var rc io.Reader
	if e.Unpacked {
		u, err := a.Open(e)
		if err != nil {
			return "", 0, err
		}
		defer u.Close()
		rc = u
	} else {
		if e.Offset+e.Size > a.Size-a.DataOffset {
			return fmt.Sprintf("its bytes (%d at %d) run past the end of the archive", e.Size, e.Offset), 0, nil
		}
		rc = io.NewSectionReader(archive, a.DataOffset+e.Offset, e.Size)
	}
	whole := sha256.New()
	// A file shorter than a block has one block hash equal to the file
	// hash: hash it once. (@electron/asar always closes with the hash of
	// the last, possibly empty, block: a file of exactly k blocks lists k+1.)
	var block hash.Hash
	if e.Size >= in.BlockSize {
		block = sha256.New()
	}
	var blocks []string
	var inBlock, total int64
	for {
		want := int64(len(buf))
		if block != nil {
			want = min(want, in.BlockSize-inBlock)
		}
		n, rerr := rc.Read(buf[:want])
		if n > 0 {
			whole.Write(buf[:n])
			if block != nil {
				block.Write(buf[:n])
				inBlock += int64(n)
				if inBlock == in.BlockSize {
					blocks = append(blocks, hex.EncodeToString(block.Sum(nil)))
					block.Reset()
					inBlock = 0
				}
			}
			total += int64(n)
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return "", total, rerr
		}
	}
	if total != e.Size {
		return fmt.Sprintf("read %d bytes, the header says %d", total, e.Size), total, nil
	}
	sum := hex.EncodeToString(whole.Sum(nil))
	if block == nil {
		blocks = []string{sum}
	} else {
		blocks = append(blocks, hex.EncodeToString(block.Sum(nil)))
	}
	if !strings.EqualFold(sum, in.Hash) {
		return fmt.Sprintf("SHA-256 is %s, the header says %s", sum, in.Hash), total, nil
	}
	if len(blocks) != len(in.Blocks) {
		return fmt.Sprintf("%d blocks of %d bytes, the header lists %d", len(blocks), in.BlockSize, len(in.Blocks)), total, nil
	}
	for i := range blocks {
		if !strings.EqualFold(blocks[i], in.Blocks[i]) {
			return fmt.Sprintf("block %d's SHA-256 differs from the header's", i), total, nil
		}
	}
	return "", total, nil
}

// ReadEntry returns up to limit bytes of an entry and whether it was cut.
func (a *Archive) ReadEntry(e *Entry, limit int64) ([]byte, bool, error) {
	rc, err := a.Open(e)
	if err != nil {
		return nil, false, err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, limit+1))
	if err != nil {
		return nil, false, err
	}
	if int64(len(b)) > limit {
		return b[:limit], true, nil
	}
	return b, false, nil
}
