package web

import (
	"context"
	"fmt"
)

// KV is the part of a key-value namespace that KVStore uses, in the shape of
// Cloudflare Workers KV as github.com/syumai/workers/cloudflare/kv exposes
// it: a missing key reads back as the string "<null>" with a nil error.
type KV interface {
	// GetString returns the value stored under key, or "<null>" when
	// there is none.
	GetString(key string) (string, error)
	// PutString stores value under key, replacing any value there.
	PutString(key, value string) error
}

// kvMissing is what Workers KV's GetString returns for a missing key: the
// JavaScript null converted to a Go string. No share document reads like
// that (documents are JSON objects), so it can only mean "absent".
const kvMissing = "<null>"

// KVStore is a Store on a key-value namespace such as Workers KV. Open is
// called once per operation, inside the request that needs it, because a
// worker's bindings exist only while a request runs.
//
// Workers KV is eventually consistent and replicated by Cloudflare, so a
// Put is as durable as KV makes it once PutString returns; a Get in another
// location may see a new share up to a minute later.
type KVStore struct {
	// Open returns the namespace to use for one operation.
	Open func() (KV, error)
}

// kvKey is the key a share is stored under.
func kvKey(id string) string { return "share/" + id }

// Get returns the document stored under id, or an error wrapping
// ErrNotFound.
func (s KVStore) Get(ctx context.Context, id string) ([]byte, error) {
	if !ValidShareID(id) {
		return nil, fmt.Errorf("web: %q is not a share id", id)
	}
	ns, err := s.Open()
	if err != nil {
		return nil, fmt.Errorf("web: opening the share namespace: %w", err)
	}
	v, err := ns.GetString(kvKey(id))
	if err != nil {
		return nil, fmt.Errorf("web: reading share %s: %w", id, err)
	}
	if v == kvMissing {
		return nil, fmt.Errorf("web: share %s: %w", id, ErrNotFound)
	}
	return []byte(v), nil
}

// Put stores doc under id unless the same document is already there.
func (s KVStore) Put(ctx context.Context, id string, doc []byte) error {
	if !ValidShareID(id) {
		return fmt.Errorf("web: %q is not a share id", id)
	}
	ns, err := s.Open()
	if err != nil {
		return fmt.Errorf("web: opening the share namespace: %w", err)
	}
	have, err := ns.GetString(kvKey(id))
	if err != nil {
		return fmt.Errorf("web: reading share %s: %w", id, err)
	}
	switch have {
	case string(doc):
		return nil
	case kvMissing:
		if err := ns.PutString(kvKey(id), string(doc)); err != nil {
			return fmt.Errorf("web: storing share %s: %w", id, err)
		}
		return nil
	default:
		return fmt.Errorf("web: share %s: %w", id, ErrConflict)
	}
}
