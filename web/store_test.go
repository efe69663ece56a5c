package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// memKV is a Workers KV namespace in memory with the real one's quirk: a
// missing key reads back as "<null>".
type memKV struct {
	mu    sync.Mutex
	m     map[string]string
	puts  int
	fails error // when set, every call fails with it
}

func (k *memKV) GetString(key string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.fails != nil {
		return "", k.fails
	}
	v, ok := k.m[key]
	if !ok {
		return "<null>", nil
	}
	return v, nil
}

func (k *memKV) PutString(key, value string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.fails != nil {
		return k.fails
	}
	if k.m == nil {
		k.m = map[string]string{}
	}
	k.m[key] = value
	k.puts++
	return nil
}

func newKVStore(kv *memKV) KVStore {
	return KVStore{Open: func() (KV, error) { return kv, nil }}
}

// stores lists every Store backend, freshly made, for the contract tests.
func stores(t *testing.T) map[string]Store {
	fs, err := OpenFileStore(filepath.Join(t.TempDir(), "shares"))
	if err != nil {
		t.Fatal(err)
	}
	return map[string]Store{"file": fs, "kv": newKVStore(&memKV{})}
}

func TestStoreContract(t *testing.T) {
	ctx := context.Background()
	for name, s := range stores(t) {
		t.Run(name, func(t *testing.T) {
			doc := []byte(`{"model":"a"}`)
			id := ShareID(doc)
			if _, err := s.Get(ctx, id); !errors.Is(err, ErrNotFound) {
				t.Fatalf("Get of a missing id: err = %v, want ErrNotFound", err)
			}
			if err := s.Put(ctx, id, doc); err != nil {
				t.Fatalf("Put: %v", err)
			}
			if err := s.Put(ctx, id, doc); err != nil {
				t.Fatalf("Put of the same document again: %v", err)
			}
			got, err := s.Get(ctx, id)
			if err != nil || !bytes.Equal(got, doc) {
				t.Fatalf("Get = %q, %v; want %q", got, err, doc)
			}
			if err := s.Put(ctx, id, []byte(`{"model":"b"}`)); !errors.Is(err, ErrConflict) {
				t.Fatalf("Put of another document under the id: err = %v, want ErrConflict", err)
			}
			if got, _ := s.Get(ctx, id); !bytes.Equal(got, doc) {
				t.Fatalf("after a conflicting Put, Get = %q, want the first document %q", got, doc)
			}
			for _, bad := range []string{"", "../../etc/passwd", strings.Repeat("A", IDLength), id + "a", id[:IDLength-1] + "/"} {
				if err := s.Put(ctx, bad, doc); err == nil {
					t.Errorf("Put(%q) succeeded, want an error", bad)
				}
				if _, err := s.Get(ctx, bad); err == nil || errors.Is(err, ErrNotFound) {
					t.Errorf("Get(%q) err = %v, want a bad-id error", bad, err)
				}
			}
		})
	}
}

func TestStoreConcurrentWriters(t *testing.T) {
	ctx := context.Background()
	for name, s := range stores(t) {
		t.Run(name, func(t *testing.T) {
			const writers, docs = 16, 40
			var wg sync.WaitGroup
			errs := make(chan error, writers*docs)
			for w := range writers {
				wg.Go(func() {
					for d := range docs {
						// Half the documents are shared by all writers (same
						// id at the same time), half are each writer's own.
						doc := fmt.Appendf(nil, `{"doc":%d,"writer":%d,"pad":%q}`, d, w*(d%2), strings.Repeat("x", d*100))
						if err := s.Put(ctx, ShareID(doc), doc); err != nil {
							errs <- err
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			for w := range writers {
				for d := range docs {
					doc := fmt.Appendf(nil, `{"doc":%d,"writer":%d,"pad":%q}`, d, w*(d%2), strings.Repeat("x", d*100))
					got, err := s.Get(ctx, ShareID(doc))
					if err != nil || !bytes.Equal(got, doc) {
						t.Fatalf("writer %d doc %d: Get = %.40q, %v", w, d, got, err)
					}
				}
			}
		})
	}
}

func TestFileStoreLayoutAndCleanup(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "a", "b", "shares") // parents are created too
	s, err := OpenFileStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	doc := []byte(`{"x":1}`)
	id := ShareID(doc)
	if err := s.Put(ctx, id, doc); err != nil {
		t.Fatal(err)
	}
	if got := names(t, dir); !equal(got, []string{id + ".json"}) {
		t.Fatalf("after one Put the folder holds %q, want only %s.json", got, id)
	}
	// Leftovers of interrupted writes, as a crash between create and rename
	// leaves them; a folder and a foreign file are left alone.
	for _, n := range []string{".tmp-" + id + "-123", ".tmp-zzzz-1"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(`{"half`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "keep"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err = OpenFileStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(t, dir); !equal(got, []string{id + ".json", "keep"}) {
		t.Fatalf("after reopening the folder holds %q, want the share and keep/", got)
	}
	if got, err := s.Get(ctx, id); err != nil || !bytes.Equal(got, doc) {
		t.Fatalf("Get after reopening = %q, %v", got, err)
	}
}

func TestOpenFileStoreErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{file, filepath.Join(file, "sub")} {
		if _, err := OpenFileStore(dir); err == nil {
			t.Errorf("OpenFileStore(%q) succeeded on a path through a file", dir)
		}
	}
}

func TestKVStoreOpensPerOperation(t *testing.T) {
	ctx := context.Background()
	kv := &memKV{}
	opens := 0
	s := KVStore{Open: func() (KV, error) { opens++; return kv, nil }}
	doc := []byte(`{"k":1}`)
	id := ShareID(doc)
	if err := s.Put(ctx, id, doc); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, id, doc); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, id); err != nil {
		t.Fatal(err)
	}
	if opens != 3 || kv.puts != 1 {
		t.Errorf("3 operations opened the namespace %d times and wrote %d times; want 3 and 1", opens, kv.puts)
	}
	if _, ok := kv.m["share/"+id]; !ok {
		t.Errorf("the share is not under key share/%s: %v", id, kv.m)
	}

	broken := errors.New("binding SHARES is undefined")
	bad := KVStore{Open: func() (KV, error) { return nil, broken }}
	if err := bad.Put(ctx, id, doc); !errors.Is(err, broken) {
		t.Errorf("Put with a failing Open: err = %v", err)
	}
	kv.fails = errors.New("network")
	if _, err := s.Get(ctx, id); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("Get with a failing namespace: err = %v, want the failure", err)
	}
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

func equal(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00")
}
