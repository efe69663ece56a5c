package web

import (
	"bytes"
	"io"
	"io/fs"
	"log"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"tapelab/web/precompress"
)

// FirstViewFunc draws a page's first view into the playground's page: given
// index.html and a shared page's stored document (nil for the playground's
// own page), it returns the page to serve. tapelab/web/firstview.Page is
// the one the playground uses; it is an option so that the share worker,
// which does not draw, does not link the engine for it.
type FirstViewFunc func(index, doc []byte) ([]byte, error)

// WithFirstView returns fsys with draw's first view drawn into its
// index.html (the playground's own page: draw is given no document), and
// the files its first paint waits for written into it (inlineFirstPaint);
// the other files are fsys's. ./build.sh dist writes the site from it.
func WithFirstView(fsys fs.FS, draw FirstViewFunc) fs.FS {
	return &firstViewFS{FS: fsys, draw: draw}
}

// firstViewFS is a file system whose index.html is its base's, with the
// first view drawn in and the files its first paint waits for written in.
// The page is made once per version of those files.
type firstViewFS struct {
	fs.FS
	draw FirstViewFunc

	mu      sync.Mutex
	inlined []string // the files written into page, but index.html
	version string   // the size and modification time of index.html and the inlined files
	page    []byte
	modTime time.Time // the latest of theirs
}

// Open opens name; index.html is the drawn page. If drawing fails, the
// base's page is served as it is and the failure logged.
func (f *firstViewFS) Open(name string) (fs.File, error) {
	if name != "index.html" {
		return f.FS.Open(name)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	version, _, err := f.versionOf(append([]string{name}, f.inlined...))
	if err != nil {
		return nil, err
	}
	if version != f.version {
		index, err := fs.ReadFile(f.FS, name)
		if err != nil {
			return nil, err
		}
		page, err := f.draw(index, nil)
		if err != nil {
			log.Printf("web: drawing the first view: %v; the page is served without it", err)
			page = index
		}
		page, f.inlined = inlineFirstPaint(page, f.FS)
		if f.version, f.modTime, err = f.versionOf(append([]string{name}, f.inlined...)); err != nil {
			return nil, err
		}
		f.page = page
	}
	return &memFile{Reader: bytes.NewReader(f.page), name: name, size: int64(len(f.page)), modTime: f.modTime}, nil
}

// versionOf returns the sizes and modification times of the files names,
// as one string, and the latest of the times. A file that is gone counts
// as a version of its own.
func (f *firstViewFS) versionOf(names []string) (string, time.Time, error) {
	var b strings.Builder
	var latest time.Time
	for i, name := range names {
		info, err := fs.Stat(f.FS, name)
		if err != nil {
			if i == 0 {
				return "", latest, err // the page itself
			}
			b.WriteString("gone ")
			continue
		}
		b.WriteString(strconv.FormatInt(info.Size(), 10) + " " + info.ModTime().String() + " ")
		if info.ModTime().After(latest) {
			latest = info.ModTime()
		}
	}
	return b.String(), latest, nil
}

// memFile is an fs.File over bytes in memory.
type memFile struct {
	*bytes.Reader
	name    string
	size    int64
	modTime time.Time
}

func (m *memFile) Stat() (fs.FileInfo, error) { return m, nil }
func (m *memFile) Close() error               { return nil }

// memFile is its own fs.FileInfo.
func (m *memFile) Name() string       { return m.name }
func (m *memFile) Size() int64        { return m.size }
func (m *memFile) Mode() fs.FileMode  { return 0o444 }
func (m *memFile) ModTime() time.Time { return m.modTime }
func (m *memFile) IsDir() bool        { return false }
func (m *memFile) Sys() any           { return nil }

var _ io.ReaderAt = (*memFile)(nil)

// sharedPages answers a stored share's page with its first view drawn in
// (and its document embedded), or as base's index.html is when it cannot
// be drawn, and every other answer as page does.
func sharedPages(store Store, base fs.FS, draw FirstViewFunc, static *staticFiles, page PageFunc) PageFunc {
	return func(w http.ResponseWriter, r *http.Request, status int) {
		if status != http.StatusOK {
			page(w, r, status)
			return
		}
		doc, err := store.Get(r.Context(), r.PathValue("id"))
		var index, drawn []byte
		if err == nil {
			index, err = fs.ReadFile(base, "index.html")
		}
		if err == nil {
			drawn, err = draw(index, doc)
		}
		if err != nil {
			log.Printf("web: %s: drawing the first view: %v; the page is served without it", r.URL.Path, err)
			if index == nil {
				page(w, r, status)
				return
			}
			drawn = index // the loading screen: not another model's tape
		}
		drawn, _ = inlineFirstPaint(drawn, base)
		if strings.HasPrefix(r.URL.Path, "/embed/") {
			drawn = embedded(drawn)
		}
		static.serveBytes(w, r, "index.html", drawn)
	}
}

// embedded returns page laid out as an embed from its first paint: its
// <html> element (which must have no class attribute) gets the class
// "embed", as the page gives it once it runs. A page without one is
// returned as it is.
func embedded(page []byte) []byte {
	i := bytes.Index(page, []byte("<html"))
	if i < 0 {
		return page
	}
	i += len("<html")
	return slices.Concat(page[:i], []byte(` class="embed"`), page[i:])
}

// serveBytes answers with raw as the file name, compressed as a static
// file is (gzip at once; brotli from the cache, at once when raw is small,
// and otherwise made in the background into the cache for the next
// answer), uncached by the client. A shared page with the stylesheet in it
// is ~65 KB, which brotli takes 115–140 ms to encode at quality 11.
func (s *staticFiles) serveBytes(w http.ResponseWriter, r *http.Request, name string, raw []byte) {
	a := newAsset(name, time.Time{}, raw)
	if gz, err := precompress.Gzip(raw); err == nil && len(gz) < len(raw) {
		a.gzip = gz
	}
	// Made in the background, the encoding serves only the next answers,
	// through the cache.
	noCache := func() bool { return s.cache == nil }
	if err := s.encodeBrotli(a, noCache); err != nil {
		log.Printf("web: brotli for %s: %v; it is served gzip'd", r.URL.Path, err)
	}
	w.Header().Set("ETag", a.etag)
	a.writeWhole(w, r, http.StatusOK, "no-cache")
}
