package precompress

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
)

// text is compressible test content; i makes each call's content distinct.
func text(i int) []byte {
	return []byte(strings.Repeat("the tape records every op; ", 200) + strings.Repeat("x", i))
}

func TestEncodings(t *testing.T) {
	raw := text(1)
	gz, err := Gzip(raw)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(zr); !bytes.Equal(got, raw) {
		t.Error("Gzip does not decode to its input")
	}
	br, err := Brotli(raw, BrotliQuality)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(brotli.NewReader(bytes.NewReader(br))); !bytes.Equal(got, raw) {
		t.Error("Brotli does not decode to its input")
	}
	var want bytes.Buffer
	w := brotli.NewWriterOptions(&want, brotli.WriterOptions{Quality: 11, LGWin: 24})
	w.Write(raw)
	w.Close()
	if !bytes.Equal(br, want.Bytes()) {
		t.Error("Brotli at BrotliQuality is not brotli's quality 11 with a 24-bit window")
	}
	for _, q := range []int{-1, 12} {
		if _, err := Brotli(raw, q); err == nil || !strings.Contains(err.Error(), "quality") {
			t.Errorf("quality %d: err = %v, want one naming the quality", q, err)
		}
	}
}

func TestCache(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "deep", "cache")
	c, err := OpenCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	raw := text(2)
	if _, ok := c.Lookup(raw); ok {
		t.Fatal("an empty cache found an encoding")
	}
	br, err := c.Brotli(raw)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Brotli(raw, BrotliQuality)
	if !bytes.Equal(br, want) {
		t.Fatal("the cache's encoding is not Brotli's at BrotliQuality")
	}
	got, ok := c.Lookup(raw)
	if !ok || !bytes.Equal(got, want) {
		t.Fatal("the stored encoding is not found again")
	}
	// Another cache on the same folder (another process) finds it too.
	other, _ := OpenCache(dir)
	if _, ok := other.Lookup(raw); !ok {
		t.Error("a second Cache on the folder does not find the encoding")
	}

	// A damaged file is not used, and is replaced by a sound one.
	files, _ := filepath.Glob(filepath.Join(dir, "*.br"))
	if len(files) != 1 {
		t.Fatalf("the folder holds %v, want one encoding", files)
	}
	for _, damage := range [][]byte{want[:len(want)/2], []byte("not brotli"), mustBrotli(t, text(3))} {
		if err := os.WriteFile(files[0], damage, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, ok := c.Lookup(raw); ok {
			t.Errorf("a damaged file (%d bytes) was taken for the encoding", len(damage))
		}
		if br, _ := c.Brotli(raw); !bytes.Equal(br, want) {
			t.Error("after damage, Brotli does not return the right encoding")
		}
		if got, ok := c.Lookup(raw); !ok || !bytes.Equal(got, want) {
			t.Error("after damage, the right encoding is not stored again")
		}
	}
}

func mustBrotli(t *testing.T, raw []byte) []byte {
	t.Helper()
	b, err := Brotli(raw, 1)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCachePrunes(t *testing.T) {
	dir := t.TempDir()
	c, err := OpenCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	c.keep = 3
	// An interrupted write of long ago, and one that may still be running.
	old := filepath.Join(dir, ".tmp-old")
	recent := filepath.Join(dir, ".tmp-recent")
	for _, p := range []string{old, recent} {
		os.WriteFile(p, []byte("partial"), 0o644)
	}
	past := time.Now().Add(-2 * time.Hour)
	os.Chtimes(old, past, past)

	for i := range 5 {
		if _, err := c.Brotli(text(10 + i)); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			// The first one is used again and again: it stays.
			defer func() {
				if _, ok := c.Lookup(text(10)); !ok {
					t.Error("the most recently used encoding was pruned")
				}
			}()
		}
		c.Lookup(text(10))
		time.Sleep(10 * time.Millisecond) // distinct modification times
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.br"))
	if len(files) != 3 {
		t.Errorf("the cache keeps %d encodings, want 3", len(files))
	}
	if _, err := os.Stat(old); err == nil {
		t.Error("an hour-old temporary file was not removed")
	}
	if _, err := os.Stat(recent); err != nil {
		t.Error("a recent temporary file (a write in progress) was removed")
	}
	if _, ok := c.Lookup(text(11)); ok {
		t.Error("the least recently used encoding was kept")
	}
}
