package web

import (
	"container/list"
	"sync"
)

// cachedPage is one page in a pageCache: a drawn page with its encodings
// (nil for a page that could not be drawn), and the files it was made
// from with their version (versionOf), which tell whether it is still
// the page those files make.
type cachedPage struct {
	key     string
	asset   *asset
	files   []string
	version string

	size int64 // what it counts for in the cache: pageSize when put or resized
}

// pageSize is the memory p holds, as the cache counts it: its key, its
// bytes and their encodings.
func pageSize(p *cachedPage) int64 {
	n := int64(len(p.key) + len(p.version))
	for _, f := range p.files {
		n += int64(len(f))
	}
	if a := p.asset; a != nil {
		n += int64(len(a.raw) + len(a.gzip))
		if br := a.br.Load(); br != nil {
			n += int64(len(*br))
		}
	}
	return n
}

// pageCache keeps pages by key, at most limit bytes of them (pageSize),
// dropping the least recently used first. A page larger than the limit
// is not kept. It is safe for concurrent use.
type pageCache struct {
	limit int64

	mu    sync.Mutex
	size  int64                    // the sum of the pages' sizes
	order *list.List               // of *cachedPage, the most recently used first
	pages map[string]*list.Element // by key, into order
}

func newPageCache(limit int64) *pageCache {
	return &pageCache{limit: limit, order: list.New(), pages: map[string]*list.Element{}}
}

// get returns the page under key and marks it used.
func (c *pageCache) get(key string) (*cachedPage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.pages[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cachedPage), true
}

// holds reports whether a is the page under key, without marking it
// used.
func (c *pageCache) holds(key string, a *asset) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.pages[key]
	return ok && e.Value.(*cachedPage).asset == a
}

// put keeps p under p.key, in place of the page there, as the most
// recently used, and drops the least recently used pages until the cache
// is within its limit.
func (c *pageCache) put(p *cachedPage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.remove(p.key)
	p.size = pageSize(p)
	if p.size > c.limit {
		return
	}
	c.pages[p.key] = c.order.PushFront(p)
	c.size += p.size
	c.trim()
}

// resize counts the page under key again, if it is still a, once an
// encoding was added to it, and drops the least recently used pages
// until the cache is within its limit.
func (c *pageCache) resize(key string, a *asset) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.pages[key]
	if !ok || e.Value.(*cachedPage).asset != a {
		return
	}
	p := e.Value.(*cachedPage)
	c.size -= p.size
	p.size = pageSize(p)
	c.size += p.size
	c.trim()
}

// bytes returns the sum of the sizes of the pages kept.
func (c *pageCache) bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size
}

// remove drops the page under key, if any. c.mu is held.
func (c *pageCache) remove(key string) {
	e, ok := c.pages[key]
	if !ok {
		return
	}
	c.order.Remove(e)
	delete(c.pages, key)
	c.size -= e.Value.(*cachedPage).size
}

// trim drops the least recently used pages until the cache is within its
// limit. c.mu is held.
func (c *pageCache) trim() {
	for c.size > c.limit {
		c.remove(c.order.Back().Value.(*cachedPage).key)
	}
}
