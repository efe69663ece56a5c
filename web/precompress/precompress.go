// Package precompress makes the encodings TapeLab sends its static files
// in: gzip at level 9, which every client accepts, and brotli at quality
// 11 with a 16 MiB window, the smallest encoding browsers decode. Brotli's
// quality 11 takes a minute or more for the playground's 7 MB wasm, so a
// Cache keeps each brotli encoding on disk under the SHA-256 of the bytes
// it encodes: it is made once per version of a file, by whichever program
// asks first (`go run .` or ./build.sh dist), and read back by the others.
package precompress

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/andybalholm/brotli"
)

// The settings of the encodings. BrotliWindow is the largest window the
// brotli format (RFC 7932) allows and browsers decode.
const (
	GzipLevel     = gzip.BestCompression
	BrotliQuality = brotli.BestCompression
	BrotliWindow  = 24
)

// Gzip returns raw gzip'd at GzipLevel.
func Gzip(raw []byte) ([]byte, error) {
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, GzipLevel)
	if err != nil {
		return nil, err
	}
	w.Write(raw) // a bytes.Buffer never fails; Close reports the rest
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Brotli returns raw encoded by brotli at the quality (0–11) with
// BrotliWindow.
func Brotli(raw []byte, quality int) ([]byte, error) {
	if quality < brotli.BestSpeed || quality > brotli.BestCompression {
		return nil, fmt.Errorf("precompress: brotli quality %d is not 0 to 11", quality)
	}
	var b bytes.Buffer
	w := brotli.NewWriterOptions(&b, brotli.WriterOptions{Quality: quality, LGWin: BrotliWindow})
	w.Write(raw)
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Cache is a folder of brotli encodings at BrotliQuality, one file per
// content, named by the content's SHA-256. A file is written under a
// temporary name and renamed, and is decoded and checked against its name
// before it is used, so a damaged or foreign file is never served: it is
// encoded again. Processes may share a folder.
type Cache struct {
	dir string
	// keep is how many encodings the folder holds at most: when a new
	// one is stored, the least recently used beyond it are removed.
	keep int
}

// cacheKeep is the default number of encodings a Cache keeps: every
// static file of a few builds of the playground.
const cacheKeep = 64

// OpenCache opens (creating it if needed) the cache in folder dir.
func OpenCache(dir string) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("precompress: creating the cache folder: %w", err)
	}
	return &Cache{dir: dir, keep: cacheKeep}, nil
}

// UserCache opens the cache in the user's cache folder
// (os.UserCacheDir()/tapelab/brotli, such as ~/.cache/tapelab/brotli).
func UserCache() (*Cache, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return nil, fmt.Errorf("precompress: %w", err)
	}
	return OpenCache(filepath.Join(dir, "tapelab", "brotli"))
}

// Dir is the cache's folder.
func (c *Cache) Dir() string { return c.dir }

const suffix = ".q11w24.br"

func (c *Cache) path(sum [sha256.Size]byte) string {
	return filepath.Join(c.dir, hex.EncodeToString(sum[:])+suffix)
}

// Lookup returns the cached encoding of raw, if the cache holds a sound one.
func (c *Cache) Lookup(raw []byte) ([]byte, bool) {
	sum := sha256.Sum256(raw)
	p := c.path(sum)
	enc, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	h := sha256.New()
	if _, err := io.Copy(h, brotli.NewReader(bytes.NewReader(enc))); err != nil || !bytes.Equal(h.Sum(nil), sum[:]) {
		return nil, false
	}
	now := time.Now()
	os.Chtimes(p, now, now) // recently used; the pruning keeps it longer
	return enc, true
}

// Brotli returns raw's encoding at BrotliQuality: the cached one, or a new
// one that it stores. It fails only if raw cannot be encoded; a cache that
// cannot be written costs the next caller the encoding again.
func (c *Cache) Brotli(raw []byte) ([]byte, error) {
	if enc, ok := c.Lookup(raw); ok {
		return enc, nil
	}
	enc, err := Brotli(raw, BrotliQuality)
	if err != nil {
		return nil, err
	}
	_ = c.store(sha256.Sum256(raw), enc) // not stored: the next caller encodes again
	return enc, nil
}

// store writes enc under sum's name and prunes the folder; errors leave
// the cache as it was.
func (c *Cache) store(sum [sha256.Size]byte, enc []byte) error {
	f, err := os.CreateTemp(c.dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(enc)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), c.path(sum))
	}
	if err != nil {
		os.Remove(f.Name())
		return err
	}
	return c.prune()
}

// prune removes the least recently used encodings beyond c.keep, and
// temporary files more than an hour old (left by interrupted writes).
func (c *Cache) prune() error {
	entries, err := os.ReadDir(c.dir)
	if err != nil {
		return err
	}
	type file struct {
		name string
		used time.Time
	}
	var files []file
	var errs []error
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		switch {
		case strings.HasSuffix(e.Name(), suffix):
			files = append(files, file{e.Name(), info.ModTime()})
		case strings.HasPrefix(e.Name(), ".tmp-") && time.Since(info.ModTime()) > time.Hour:
			errs = append(errs, os.Remove(filepath.Join(c.dir, e.Name())))
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].used.After(files[j].used) })
	for i := c.keep; i < len(files); i++ {
		errs = append(errs, os.Remove(filepath.Join(c.dir, files[i].name)))
	}
	return errors.Join(errs...)
}
