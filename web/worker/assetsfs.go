//go:build js && wasm

package main

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"time"

	"github.com/syumai/workers/cloudflare"
	"github.com/syumai/workers/cloudflare/fetch"
)

// assetsBinding is the binding of the static assets in wrangler.jsonc.
const assetsBinding = "ASSETS"

// assetsFS is the worker's static assets as an fs.FS, read through the
// ASSETS binding, so that the handler can serve the playground's page for
// /s/{id} and /embed/{id}. Like the KV namespace it may only be used inside
// a request. It has no directories: Open serves files only.
type assetsFS struct{}

// Open fetches the asset name; a missing asset is fs.ErrNotExist.
func (assetsFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) || name == "." {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	client := fetch.NewClient(fetch.WithBinding(cloudflare.GetBinding(assetsBinding))).HTTPClient(fetch.RedirectModeFollow)
	// The host is ignored: the binding serves this worker's assets.
	resp, err := client.Get("https://assets.invalid/" + name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	case resp.StatusCode != http.StatusOK:
		return nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("assets answered %s", resp.Status)}
	}
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return &assetFile{Reader: bytes.NewReader(data), info: assetInfo{name: path.Base(name), size: int64(len(data))}}, nil
}

// assetFile is one fetched asset.
type assetFile struct {
	*bytes.Reader
	info assetInfo
}

func (f *assetFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *assetFile) Close() error               { return nil }

// assetInfo describes a fetched asset. Assets carry no modification time;
// the handler's ETag, a hash of the content, validates them instead.
type assetInfo struct {
	name string
	size int64
}

func (i assetInfo) Name() string       { return i.name }
func (i assetInfo) Size() int64        { return i.size }
func (i assetInfo) Mode() fs.FileMode  { return 0o444 }
func (i assetInfo) ModTime() time.Time { return time.Time{} }
func (i assetInfo) IsDir() bool        { return false }
func (i assetInfo) Sys() any           { return nil }
