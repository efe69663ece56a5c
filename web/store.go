package web

import (
	"context"
	"errors"
)

// Store keeps shared model documents by id. Ids are content-derived (see
// ShareID), so a Store never holds two different documents under one id.
// Implementations are safe for concurrent use.
type Store interface {
	// Get returns the document stored under id. When there is none, the
	// error wraps ErrNotFound.
	Get(ctx context.Context, id string) ([]byte, error)

	// Put stores doc under id. It returns nil only once the document is as
	// durable as the backend can make it, so that acknowledging the share
	// is safe. Putting a document that is already stored is a cheap no-op;
	// putting a different document under an existing id fails with an error
	// wrapping ErrConflict and leaves the stored one untouched.
	Put(ctx context.Context, id string, doc []byte) error
}

// ErrNotFound is wrapped by Store.Get when no document has the id.
var ErrNotFound = errors.New("share not found")

// ErrConflict is wrapped by Store.Put when a different document is already
// stored under the id (a hash collision, or a damaged store).
var ErrConflict = errors.New("a different document is stored under this id")
