package web

import (
	"crypto/sha256"
	"encoding/base32"
)

// Share ids are the first idBytes bytes of the SHA-256 of a model's
// canonical encoding, written in lowercase base32 without padding: exactly
// IDLength characters from IDAlphabet. 80 bits make an accidental collision
// practically impossible and a chosen one (a second document for someone
// else's id) out of reach; lowercase keeps ids distinct on case-insensitive
// file systems and when people retype them.
const (
	// IDAlphabet lists the characters a share id is made of.
	IDAlphabet = "abcdefghijklmnopqrstuvwxyz234567"
	// IDLength is the number of characters in every share id.
	IDLength = 16

	idBytes = IDLength * 5 / 8
)

var idEncoding = base32.NewEncoding(IDAlphabet).WithPadding(base32.NoPadding)

// ShareID returns the id of the model whose canonical encoding is
// canonical. Equal encodings always give equal ids.
func ShareID(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return idEncoding.EncodeToString(sum[:idBytes])
}

// ValidShareID reports whether id has the form ShareID produces: IDLength
// characters from IDAlphabet. Only such ids reach a Store, so a Store may
// use them as file names or keys as they are.
func ValidShareID(id string) bool {
	if len(id) != IDLength {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || '2' <= c && c <= '7') {
			return false
		}
	}
	return true
}
