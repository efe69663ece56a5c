package web

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestPageCache keeps pages within the cache's limit, dropping the least
// recently used first, and counts a page again when its brotli encoding
// is added.
func TestPageCache(t *testing.T) {
	// page returns a cached page of n bytes in all (its key is one byte).
	page := func(key string, n int) *cachedPage {
		return &cachedPage{key: key, asset: newAsset("index.html", time.Time{}, []byte(strings.Repeat("x", n-len(key))))}
	}
	for _, tc := range []struct {
		name string
		ops  []string // "put K N", "get K"
		keep []string // the keys kept, the most recently used first
		size int64
	}{
		{"within the limit", []string{"put a 30", "put b 30", "put c 40"}, []string{"c", "b", "a"}, 100},
		{"the oldest goes", []string{"put a 30", "put b 30", "put c 40", "put d 10"}, []string{"d", "c", "b"}, 80},
		{"a use keeps a page", []string{"put a 30", "put b 30", "put c 40", "get a", "put d 10"}, []string{"d", "a", "c"}, 80},
		{"as many go as must", []string{"put a 30", "put b 30", "put c 40", "put d 75"}, []string{"d"}, 75},
		{"too large to keep", []string{"put a 30", "put b 101"}, []string{"a"}, 30},
		{"a page replaced", []string{"put a 30", "put b 30", "put a 50"}, []string{"a", "b"}, 80},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newPageCache(100)
			for _, op := range tc.ops {
				f := strings.Fields(op)
				switch f[0] {
				case "put":
					n, err := strconv.Atoi(f[2])
					if err != nil {
						t.Fatal(err)
					}
					c.put(page(f[1], n))
				case "get":
					if _, ok := c.get(f[1]); !ok {
						t.Fatalf("%s: %s is not kept", op, f[1])
					}
				}
			}
			var keys []string
			for e := c.order.Front(); e != nil; e = e.Next() {
				keys = append(keys, e.Value.(*cachedPage).key)
			}
			if !slices.Equal(keys, tc.keep) || c.bytes() != tc.size || len(c.pages) != len(keys) {
				t.Errorf("kept %v (%d bytes, %d in the index), want %v (%d bytes)", keys, c.bytes(), len(c.pages), tc.keep, tc.size)
			}
		})
	}
}

// TestPageCacheResize counts a page's brotli encoding once it is added,
// dropping the least recently used pages to make room for it.
func TestPageCacheResize(t *testing.T) {
	c := newPageCache(100)
	a := &cachedPage{key: "a", asset: newAsset("index.html", time.Time{}, make([]byte, 39))}
	b := &cachedPage{key: "b", asset: newAsset("index.html", time.Time{}, make([]byte, 39))}
	c.put(a)
	c.put(b)
	br := make([]byte, 30)
	b.asset.br.Store(&br)
	c.resize("a", b.asset) // not a's asset: nothing to count
	if got := c.bytes(); got != 80 {
		t.Fatalf("after a resize of a page not kept under its key, the cache counts %d bytes, want 80", got)
	}
	c.resize("b", b.asset)
	if _, ok := c.get("a"); ok || c.bytes() != 70 || !c.holds("b", b.asset) {
		t.Errorf("after b's encoding was counted the cache holds a: %v, b: %v, %d bytes; want only b, 70 bytes", ok, c.holds("b", b.asset), c.bytes())
	}
}
