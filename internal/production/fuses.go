package production

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"sync"
)

// Sentinel precedes Electron's fuse wire in the binary (Electron 12 and
// later): the wire is one version byte, one length byte, then one byte per
// fuse.
const Sentinel = "dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX"

// The states a fuse byte can hold.
const (
	fuseDisabled = '0'
	fuseEnabled  = '1'
	fuseRemoved  = 'r'
)

// FuseNames are the V1 fuses in wire order, as @electron/fuses names them.
var fuseNames = [...]string{
	"RunAsNode",
	"EnableCookieEncryption",
	"EnableNodeOptionsEnvironmentVariable",
	"EnableNodeCliInspectArguments",
	"EnableEmbeddedAsarIntegrityValidation",
	"OnlyLoadAppFromAsar",
	"LoadBrowserProcessSpecificV8Snapshot",
	"GrantFileProtocolExtraPrivileges",
	"WasmTrapHandlers",
}

// Fuse is one fuse of the wire.
type Fuse struct {
	Index int    `json:"index"`
	Name  string `json:"name"`  // the @electron/fuses option name; "fuse_<n>" past the known ones
	State string `json:"state"` // enabled, disabled, removed, or unknown(0xNN)
}

// FuseWire is what the binary's fuse wire says.
type FuseWire struct {
	Binary    string `json:"binary"`
	Offset    int64  `json:"offset"`    // byte offset of the sentinel
	Sentinels int    `json:"sentinels"` // copies found (2 in a universal macOS binary)
	Version   int    `json:"version"`
	Fuses     []Fuse `json:"fuses"`
}

// State returns the state of the named fuse, "" when the wire lacks it.
func (w *FuseWire) State(name string) string {
	if w == nil {
		return ""
	}
	for _, f := range w.Fuses {
		if f.Name == name {
			return f.State
		}
	}
	return ""
}

func fuseState(b byte) string {
	switch b {
	case fuseDisabled:
		return "disabled"
	case fuseEnabled:
		return "enabled"
	case fuseRemoved:
		return "removed"
	}
	return fmt.Sprintf("unknown(0x%02x)", b)
}

// scanChunk is how much of a binary is read at a time.
const scanChunk = 1 << 20

// electronVersionRE and chromeVersionRE find version tokens as a user agent
// names them; compiled on first use, not when the binary starts.
var (
	electronVersionRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^Electron/(\d{1,3}\.\d{1,3}\.\d{1,3}(?:-[0-9A-Za-z.]+)?)`)
	})
	chromeVersionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Chrome/(\d{2,4}\.\d+\.\d+\.\d+)`) })
)

// binaryScan is what one pass over a binary found.
type binaryScan struct {
	sentinels []int64
	electron  string // first Electron/x.y.z token
	chrome    string // first Chrome/a.b.c.d token
}

// scanBinary reads path once in chunks, recording every fuse sentinel and
// the first Electron/ and Chrome/ version tokens.
func scanBinary(ctx context.Context, path string) (*binaryScan, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	const keep = 64 // bytes carried over so a token across a boundary is seen
	buf := make([]byte, keep+scanChunk)
	sentinel := []byte(Sentinel)
	out := &binaryScan{}
	var base int64 // file offset of buf[0]
	carry := 0
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		n, rerr := io.ReadFull(f, buf[carry:])
		data := buf[:carry+n]
		// Only matches starting before the carry of the next round are
		// taken here; the rest are seen again next time.
		limit := len(data)
		eof := rerr == io.EOF || rerr == io.ErrUnexpectedEOF
		if !eof {
			limit = len(data) - keep
		}
		for i := 0; ; {
			j := bytes.Index(data[i:], sentinel)
			if j < 0 || i+j >= limit {
				break
			}
			out.sentinels = append(out.sentinels, base+int64(i+j))
			i += j + 1
		}
		if out.electron == "" {
			out.electron = firstToken(data, limit, "Electron/", electronVersionRE())
		}
		if out.chrome == "" {
			out.chrome = firstToken(data, limit, "Chrome/", chromeVersionRE())
		}
		if eof {
			return out, nil
		}
		if rerr != nil {
			return nil, rerr
		}
		copy(buf, data[len(data)-keep:])
		base += int64(len(data) - keep)
		carry = keep
	}
}

func firstToken(data []byte, limit int, prefix string, re *regexp.Regexp) string {
	p := []byte(prefix)
	for i := 0; ; {
		j := bytes.Index(data[i:], p)
		if j < 0 || i+j >= limit {
			return ""
		}
		end := min(i+j+64, len(data))
		if m := re.FindSubmatch(data[i+j : end]); m != nil {
			return string(m[1])
		}
		i += j + 1
	}
}

// readWire reads the fuse wire that follows the sentinel at off.
func readWire(path string, off int64, copies int) (*FuseWire, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, 2+255)
	n, err := f.ReadAt(head, off+int64(len(Sentinel)))
	if n < 2 {
		return nil, fmt.Errorf("fuse wire after the sentinel at %d is cut short: %v", off, err)
	}
	w := &FuseWire{Binary: path, Offset: off, Sentinels: copies, Version: int(head[0])}
	length := int(head[1])
	if 2+length > n {
		return nil, fmt.Errorf("fuse wire at %d says %d fuses but the file ends after %d", off, length, n-2)
	}
	if w.Version != 1 {
		return w, fmt.Errorf("fuse wire version %d is not one this reader knows (1)", w.Version)
	}
	for i := 0; i < length; i++ {
		name := fmt.Sprintf("fuse_%d", i)
		if i < len(fuseNames) {
			name = fuseNames[i]
		}
		w.Fuses = append(w.Fuses, Fuse{Index: i, Name: name, State: fuseState(head[2+i])})
	}
	return w, nil
}

// ReadFuses reads the fuse wire of an Electron binary. It returns nil and
// no error when the binary carries no sentinel (Electron before 12, or not
// Electron).
func ReadFuses(ctx context.Context, binary string) (*FuseWire, error) {
	scan, err := scanBinary(ctx, binary)
	if err != nil {
		return nil, err
	}
	if len(scan.sentinels) == 0 {
		return nil, nil
	}
	return readWire(binary, scan.sentinels[0], len(scan.sentinels))
}
