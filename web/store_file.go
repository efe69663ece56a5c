package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// FileStore is the embedded, crash-safe Store used by `go run . serve`: one
// file per share, named <id>.json, in one folder.
//
// A document is written to a temporary file in the same folder, synced to
// disk, renamed to its final name and the folder is synced, so a crash at
// any point leaves either no file or the whole file under the final name,
// and Put returns only after both the data and the name are on disk.
// Concurrent Puts of different ids never touch the same file; concurrent
// Puts of one id write equal bytes and the rename is atomic. Temporary files
// left by interrupted writes are removed by OpenFileStore.
type FileStore struct {
	dir  string
	sync dirSyncer
}

// tmpPrefix starts the name of every temporary file; OpenFileStore removes
// files with this prefix. No share file can start with it, as ids are
// lowercase letters and digits.
const tmpPrefix = ".tmp-"

// OpenFileStore opens the store in folder dir, creating it (and its
// parents) if needed, and removes the leftovers of interrupted writes.
// Only one process should write to a folder at a time: opening removes the
// temporary files of writes that may still be running in another one.
func OpenFileStore(dir string) (*FileStore, error) {
	dir = filepath.Clean(dir)
	if err := mkdirDurable(dir); err != nil {
		return nil, fmt.Errorf("web: creating the share folder: %w", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("web: opening the share folder: %w", err)
	}
	removed := 0
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tmpPrefix) && e.Type().IsRegular() {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("web: removing an interrupted write: %w", err)
			}
			removed++
		}
	}
	s := &FileStore{dir: dir, sync: dirSyncer{dir: dir}}
	if removed > 0 {
		if err := s.sync.sync(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Dir returns the folder the store keeps its files in.
func (s *FileStore) Dir() string { return s.dir }

func (s *FileStore) path(id string) (string, error) {
	if !ValidShareID(id) {
		return "", fmt.Errorf("web: %q is not a share id", id)
	}
	return filepath.Join(s.dir, id+".json"), nil
}

// Get returns the document stored under id, or an error wrapping
// ErrNotFound.
func (s *FileStore) Get(ctx context.Context, id string) ([]byte, error) {
	name, err := s.path(id)
	if err != nil {
		return nil, err
	}
	doc, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("web: share %s: %w", id, ErrNotFound)
	}
	return doc, err
}

// Put stores doc under id durably; see FileStore for how.
func (s *FileStore) Put(ctx context.Context, id string, doc []byte) error {
	name, err := s.path(id)
	if err != nil {
		return err
	}
	have, err := os.ReadFile(name)
	switch {
	case err == nil && bytes.Equal(have, doc):
		// Another Put may have renamed this file and still be syncing the
		// folder: sync it before acknowledging.
		return s.sync.sync()
	case err == nil:
		return fmt.Errorf("web: share %s: %w", id, ErrConflict)
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("web: share %s: %w", id, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := writeSynced(s.dir, tmpPrefix+id+"-*", name, doc); err != nil {
		return fmt.Errorf("web: storing share %s: %w", id, err)
	}
	return s.sync.sync()
}

// writeSynced writes data to a new temporary file in dir named after
// pattern, syncs it and renames it to name. On failure it removes the
// temporary file.
func writeSynced(dir, pattern, name string, data []byte) (err error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}

// mkdirDurable creates dir and any missing parents, syncing each parent
// whose entries changed so that the new folders survive a crash.
func mkdirDurable(dir string) error {
	if info, err := os.Stat(dir); err == nil {
		if !info.IsDir() {
			return fmt.Errorf("%s is not a folder", dir)
		}
		return nil
	}
	parent := filepath.Dir(dir)
	if parent != dir {
		if err := mkdirDurable(parent); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return syncDir(parent)
}

// syncDir flushes the entries of the folder dir to disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("web: syncing folder %s: %w", dir, err)
	}
	return nil
}

// dirSyncer syncs one folder on behalf of many writers, coalescing their
// requests: a writer that has renamed its file waits for a folder sync that
// started after its rename, and one such sync serves every writer waiting
// at the time it starts.
type dirSyncer struct {
	dir string

	mu      sync.Mutex
	cond    *sync.Cond
	running bool   // a sync is in progress
	started uint64 // number of syncs started
	done    uint64 // number of the latest finished sync
	err     error  // its result
}

// sync returns once a sync of the folder that started after the call has
// finished, with that sync's error.
func (d *dirSyncer) sync() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cond == nil {
		d.cond = sync.NewCond(&d.mu)
	}
	// A sync already running may have read the folder before our rename;
	// we need one that starts from now on.
	want := d.started + 1
	for d.done < want {
		if d.running {
			d.cond.Wait()
			continue
		}
		d.running = true
		d.started++
		n := d.started
		d.mu.Unlock()
		err := syncDir(d.dir)
		d.mu.Lock()
		d.running, d.done, d.err = false, n, err
		d.cond.Broadcast()
	}
	return d.err
}
