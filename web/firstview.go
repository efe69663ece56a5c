package web

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net/http"
	"runtime"
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
	version, _, err := versionOf(f.FS, append([]string{name}, f.inlined...))
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
		if f.version, f.modTime, err = versionOf(f.FS, append([]string{name}, f.inlined...)); err != nil {
			return nil, err
		}
		f.page = page
	}
	return &memFile{Reader: bytes.NewReader(f.page), name: name, size: int64(len(f.page)), modTime: f.modTime}, nil
}

// versionOf returns the sizes and modification times of the files names
// in fsys, as one string, and the latest of the times. A file that is
// gone counts as a version of its own; the first, the page itself, must
// be there.
func versionOf(fsys fs.FS, names []string) (string, time.Time, error) {
	var b strings.Builder
	var latest time.Time
	for i, name := range names {
		info, err := fs.Stat(fsys, name)
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

// The defaults of the shared pages' first views (Options).
const (
	// DefaultFirstViewCache is the memory the drawn shared pages are
	// kept in, pages and encodings together.
	DefaultFirstViewCache = 128 << 20
	// DefaultFirstViewWait is how long a request waits for its page to
	// be drawn (for a drawer, and for the drawing) before it is answered
	// with the undrawn page.
	DefaultFirstViewWait = time.Second
)

// firstViewBrotliLimit is the largest drawn page that gets a brotli
// encoding (in the background, as a large static file does); a larger
// one is served gzip'd only. Brotli at quality 11 takes some 1.7 s and
// 25 bytes of memory per byte of a page (a 10 MB page: 17 s and 240 MB),
// which a page drawn once and perhaps opened once does not repay.
const firstViewBrotliLimit = 1 << 20

// firstViews answers the pages of stored shares (/s/{id}, /embed/{id})
// with their first view drawn in and their document embedded. A share
// never changes, so each page is drawn once and kept, with its
// encodings, in a cache bounded by bytes (pageCache), until the page or a
// file written into it changes or the cache needs the room. Requests for
// a page being drawn wait for that drawing (a flight) instead of drawing
// it again. At most len(slots) pages are drawn at once, so that drawing
// leaves cores to everything else. A request whose page is not drawn
// within wait (a slot and the drawing together), and one for a page that
// cannot be drawn, is answered with the undrawn page (index.html as it
// is, which the wasm fills in once it runs); a drawing under way then
// goes on into the cache for the next request, and one that has not
// begun is abandoned once no request waits for it, so that the work
// queued never outgrows the requests waiting.
type firstViews struct {
	store  Store
	base   fs.FS // the files as they are: index.html undrawn
	draw   FirstViewFunc
	static *staticFiles
	page   PageFunc // every answer but 200
	cache  *pageCache
	slots  chan struct{} // one token per drawing under way
	wait   time.Duration

	undrawnMu sync.Mutex // held while the undrawn pages are made

	mu      sync.Mutex
	flights map[string]*flight // by cache key
}

// flight is one drawing of one page, which every request for the page
// that comes while it runs waits for.
type flight struct {
	done   chan struct{} // closed once a is set
	a      *asset        // the page drawn; nil: serve the undrawn page
	cancel context.CancelFunc
	// Guarded by firstViews.mu: the requests waiting for it, and whether
	// it has begun to draw (then it is no longer cancelled).
	waiters int
	drawing bool
}

// newFirstViews returns the shared pages of store drawn by draw from
// base's index.html, served by static; page answers when the share is not
// stored. Options' zero values get the defaults.
func newFirstViews(store Store, base fs.FS, draw FirstViewFunc, static *staticFiles, page PageFunc, opts Options) *firstViews {
	limit := opts.FirstViewCache
	if limit <= 0 {
		limit = DefaultFirstViewCache
	}
	drawers := opts.FirstViewDrawers
	if drawers <= 0 {
		drawers = max(1, runtime.GOMAXPROCS(0)/2)
	}
	wait := opts.FirstViewWait
	if wait <= 0 {
		wait = DefaultFirstViewWait
	}
	return &firstViews{store: store, base: base, draw: draw, static: static, page: page,
		cache: newPageCache(limit), slots: make(chan struct{}, drawers), wait: wait, flights: map[string]*flight{}}
}

// serve is the PageFunc of the shared pages.
func (v *firstViews) serve(w http.ResponseWriter, r *http.Request, status int) {
	if status != http.StatusOK {
		v.page(w, r, status)
		return
	}
	ctx := r.Context()
	embed := isEmbedPath(r.URL.Path)
	key := "/s/"
	if embed {
		key = "/embed/"
	}
	key += r.PathValue("id")
	a, ok := v.cached(key)
	if !ok {
		a = v.join(ctx, key, r.PathValue("id"), embed)
	}
	if ctx.Err() != nil {
		return // no one to answer
	}
	if a == nil {
		if a, ok = v.undrawn(embed); !ok {
			v.page(w, r, status)
			return
		}
	}
	w.Header().Set("ETag", a.etag)
	a.writeWhole(w, r, http.StatusOK, "no-cache")
}

// cached returns the page the cache holds under key if it is up to date:
// made from the files it was made from as they are now. A page that could
// not be drawn is held as nil.
func (v *firstViews) cached(key string) (*asset, bool) {
	p, ok := v.cache.get(key)
	if !ok {
		return nil, false
	}
	if version, _, err := versionOf(v.base, p.files); err != nil || version != p.version {
		return nil, false
	}
	return p.asset, true
}

// keep puts the page a (nil when it could not be drawn), made from the
// files, into the cache under key.
func (v *firstViews) keep(key string, a *asset, files []string) {
	version, _, err := versionOf(v.base, files)
	if err != nil {
		return
	}
	v.cache.put(&cachedPage{key: key, asset: a, files: files, version: version})
}

// join waits for the flight drawing the page key (starting it if none
// is under way) and returns the page, or nil when it is not drawn: not
// within v.wait (a slot and the drawing together), the client went away
// (ctx is done) or the page cannot be drawn. A flight that every request
// waiting for it has left is abandoned if it has not started drawing, and
// otherwise draws into the cache for the requests to come.
func (v *firstViews) join(ctx context.Context, key, id string, embed bool) *asset {
	v.mu.Lock()
	f := v.flights[key]
	if f == nil {
		fctx, cancel := context.WithCancel(context.Background())
		f = &flight{done: make(chan struct{}), cancel: cancel}
		v.flights[key] = f
		go v.fly(fctx, f, key, id, embed)
	}
	f.waiters++
	v.mu.Unlock()
	defer v.leave(key, f)

	timer := time.NewTimer(v.wait)
	defer timer.Stop()
	select {
	case <-f.done:
		return f.a
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return nil
	}
}

// leave ends one request's wait for f; the last to leave a flight that
// has not begun to draw cancels it.
func (v *firstViews) leave(key string, f *flight) {
	v.mu.Lock()
	defer v.mu.Unlock()
	f.waiters--
	if f.waiters > 0 || f.drawing {
		return // a drawing goes on, and later requests join it
	}
	f.cancel()
	if v.flights[key] == f {
		delete(v.flights, key) // the next request starts afresh
	}
}

// fly draws the page key (the share id's, embedded or not) into the
// cache and f.a. It stops where ctx is done, between its phases: reading
// the document, waiting for a slot, drawing. Once it draws it is not
// cancelled (FirstViewFunc takes no context, so drawing cannot be
// stopped): a page drawn for requests that have left by then is still
// encoded and kept, since the drawing is the dear part and the share
// never changes.
func (v *firstViews) fly(ctx context.Context, f *flight, key, id string, embed bool) {
	defer func() {
		v.mu.Lock()
		if v.flights[key] == f {
			delete(v.flights, key)
		}
		v.mu.Unlock()
		f.cancel()
		close(f.done)
	}()
	doc, err := v.store.Get(ctx, id)
	if err != nil {
		if ctx.Err() == nil {
			log.Printf("web: %s: reading the share: %v; the page is served without its first view", key, err)
		}
		return
	}
	select {
	case v.slots <- struct{}{}:
	case <-ctx.Done():
		return
	}
	defer func() { <-v.slots }()
	if a, ok := v.cached(key); ok {
		f.a = a // kept by the flight before this one, after this request missed it
		return
	}
	v.mu.Lock()
	if ctx.Err() != nil {
		v.mu.Unlock()
		return
	}
	f.drawing = true
	v.mu.Unlock()
	index, err := fs.ReadFile(v.base, "index.html")
	if err != nil {
		log.Printf("web: %s: %v; the page is served without its first view", key, err)
		return
	}
	drawn, err := v.draw(index, doc)
	if err != nil {
		// The same document always fails the same way: remember it.
		log.Printf("web: %s: drawing the first view: %v; the page is served without it", key, err)
		v.keep(key, nil, []string{"index.html"})
		return
	}
	a, files, err := v.asset(drawn, embed)
	if err != nil {
		log.Printf("web: %s: %v; the page is served without its first view", key, err)
		return
	}
	v.keep(key, a, files)
	f.a = a
	if len(a.raw) > firstViewBrotliLimit {
		return
	}
	stale := func() bool { return !v.cache.holds(key, a) }
	if err := v.static.encodeBrotli(a, stale, func() { v.cache.resize(key, a) }); err != nil {
		log.Printf("web: brotli for %s: %v; it is served gzip'd", key, err)
	}
}

// asset returns the page drawn (index.html with a first view, or as it
// is) with the files its first paint waits for written in, laid out as
// an embed or not, gzip'd, and the files it was made from.
func (v *firstViews) asset(drawn []byte, embed bool) (*asset, []string, error) {
	page, inlined := inlineFirstPaint(drawn, v.base)
	if embed {
		page = embedded(page)
	}
	a := newAsset("index.html", time.Time{}, page)
	gz, err := precompress.Gzip(page)
	if err != nil {
		return nil, nil, fmt.Errorf("compressing the page: %w", err)
	}
	if len(gz) < len(page) {
		a.gzip = gz
	}
	return a, append([]string{"index.html"}, inlined...), nil
}

// undrawn returns the page the wasm fills in: index.html as it is, with
// the files its first paint waits for written in, laid out as an embed
// or not. It is kept in the cache like a drawn page.
func (v *firstViews) undrawn(embed bool) (*asset, bool) {
	key := "undrawn"
	if embed {
		key = "undrawn embed"
	}
	if a, ok := v.cached(key); ok && a != nil {
		return a, true
	}
	v.undrawnMu.Lock()
	defer v.undrawnMu.Unlock()
	if a, ok := v.cached(key); ok && a != nil {
		return a, true // made while this request waited
	}
	index, err := fs.ReadFile(v.base, "index.html")
	if err != nil {
		log.Printf("web: reading the playground's page: %v", err)
		return nil, false
	}
	a, files, err := v.asset(index, embed)
	if err != nil {
		log.Printf("web: the undrawn page: %v", err)
		return nil, false
	}
	v.keep(key, a, files)
	stale := func() bool { return !v.cache.holds(key, a) }
	if err := v.static.encodeBrotli(a, stale, func() { v.cache.resize(key, a) }); err != nil {
		log.Printf("web: brotli for the undrawn page: %v; it is served gzip'd", err)
	}
	return a, true
}
