package deflate

import (
	"bytes"
	"compress/flate"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// inputs are texts and bytes of the kinds a link holds and of the kinds
// that exercise the corners: empty, one byte, long runs (matches of 258),
// incompressible noise (fixed codes, literals only), and text longer than
// the window.
func inputs() map[string][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	noise := make([]byte, 3000)
	for i := range noise {
		noise[i] = byte(r.IntN(256))
	}
	var numbers strings.Builder
	for i := range 2000 {
		numbers.WriteString(`{"x":[` + string(rune('0'+i%10)) + `.` + string(rune('0'+r.IntN(10))) + `]},`)
	}
	return map[string][]byte{
		"empty":    nil,
		"one byte": []byte("a"),
		"envelope": []byte(`{"model":{"version":1,"input":[2],"layers":[{"type":"linear","out":4},{"type":"relu"},{"type":"linear","out":1}],"loss":"mse","seed":7},"view":"train","pos":{"phase":"backward","node":7}}`),
		"run":      bytes.Repeat([]byte("a"), 5000),
		"pairs":    bytes.Repeat([]byte("ab"), 700),
		"noise":    noise,
		"numbers":  []byte(numbers.String()), // longer than the window
	}
}

var dicts = map[string][]byte{
	"no dictionary": nil,
	"dictionary":    []byte(`{"model":{"version":1,"input":[2],"layers":[{"type":"linear","out":4},{"type":"tanh"}],"loss":"mse","seed":`),
	"long":          bytes.Repeat([]byte("0123456789abcdef"), window/16+100),
}

func TestRoundTrip(t *testing.T) {
	for dn, dict := range dicts {
		for name, raw := range inputs() {
			packed := Compress(raw, dict)
			got, err := Decompress(packed, dict, len(raw))
			if err != nil || !bytes.Equal(got, raw) {
				t.Errorf("%s, %s: Decompress(Compress) = %d bytes, %v; want the %d bytes back", dn, name, len(got), err, len(raw))
			}
			// compress/flate reads what Compress writes.
			fr := flate.NewReaderDict(bytes.NewReader(packed), dict)
			if got, err := io.ReadAll(fr); err != nil || !bytes.Equal(got, raw) {
				t.Errorf("%s, %s: compress/flate reads %d bytes, %v; want the %d bytes", dn, name, len(got), err, len(raw))
			}
			// Decompress reads what compress/flate writes, at every kind of level.
			for _, level := range []int{flate.HuffmanOnly, flate.NoCompression, flate.BestSpeed, flate.DefaultCompression, flate.BestCompression} {
				var buf bytes.Buffer
				fw, err := flate.NewWriterDict(&buf, level, dict)
				if err != nil {
					t.Fatal(err)
				}
				fw.Write(raw)
				fw.Close()
				if got, err := Decompress(buf.Bytes(), dict, len(raw)); err != nil || !bytes.Equal(got, raw) {
					t.Errorf("%s, %s, level %d: Decompress of compress/flate's stream = %d bytes, %v; want the %d bytes", dn, name, level, len(got), err, len(raw))
				}
			}
		}
	}
}

// TestSize holds Compress to compress/flate's best on the texts links hold.
func TestSize(t *testing.T) {
	dict := dicts["dictionary"]
	for _, name := range []string{"envelope", "numbers", "run", "pairs"} {
		raw := inputs()[name]
		var buf bytes.Buffer
		fw, _ := flate.NewWriterDict(&buf, flate.BestCompression, dict)
		fw.Write(raw)
		fw.Close()
		got, want := len(Compress(raw, dict)), buf.Len()
		t.Logf("%s: %d bytes, compress/flate %d", name, got, want)
		if got > want+want/50+2 {
			t.Errorf("%s: Compress writes %d bytes, compress/flate's best %d", name, got, want)
		}
	}
}

func TestErrors(t *testing.T) {
	dict := dicts["dictionary"]
	raw := inputs()["envelope"]
	packed := Compress(raw, dict)
	for n := range len(packed) {
		if _, err := Decompress(packed[:n], dict, len(raw)); err != ErrShort {
			t.Errorf("the first %d of %d bytes: %v, want ErrShort", n, len(packed), err)
		}
	}
	if _, err := Decompress(packed, dict, len(raw)-1); err != ErrTooLarge {
		t.Errorf("a limit one byte short: %v, want ErrTooLarge", err)
	}
	if got, err := Decompress(append(packed, "after the end"...), dict, len(raw)); err != nil || !bytes.Equal(got, raw) {
		t.Errorf("bytes after the final block: %q, %v; want them ignored", got, err)
	}
	corrupt := []struct {
		name   string
		packed []byte
		dict   []byte
		want   string
	}{
		{"block type 3", []byte{0x07}, nil, "type 3"},
		{"stored length", []byte{0x01, 0x05, 0x00, 0x00, 0x00}, nil, "complement"},
		// A fixed-code match of length 3 at distance 1 with nothing before it.
		{"distance", fixedMatch(), nil, "before the dictionary"},
	}
	for _, c := range corrupt {
		_, err := Decompress(c.packed, c.dict, 100)
		var ce CorruptError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a CorruptError saying %q", c.name, err, c.want)
		}
	}
	// The same match after a one-byte dictionary is fine.
	if got, err := Decompress(fixedMatch(), []byte("z"), 100); err != nil || string(got) != "zzz" {
		t.Errorf("a match into the dictionary: %q, %v; want \"zzz\"", got, err)
	}
}

// fixedMatch is a final fixed-code block holding one match (length 3,
// distance 1) and the end code.
func fixedMatch() []byte {
	var w writer
	w.bits(1|1<<1, 3)
	w.block([]token{{length: 3, dist: 1}}, fixedLit.lengths(288), fixedDist.lengths(30))
	return w.flush()
}

func FuzzDecompress(f *testing.F) {
	for _, raw := range inputs() {
		f.Add(Compress(raw, nil))
	}
	f.Fuzz(func(t *testing.T, packed []byte) {
		got, err := Decompress(packed, nil, 1<<16)
		want, ferr := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(packed)), 1<<16+1))
		if err == nil && (ferr != nil || !bytes.Equal(got, want)) {
			t.Fatalf("Decompress gives %d bytes; compress/flate %d bytes, %v", len(got), len(want), ferr)
		}
		if err != nil && ferr == nil && len(want) <= 1<<16 {
			t.Fatalf("Decompress fails (%v) where compress/flate reads %d bytes", err, len(want))
		}
		if err == nil {
			if again, err := Decompress(Compress(got, nil), nil, len(got)); err != nil || !bytes.Equal(again, got) {
				t.Fatalf("Compress of %d bytes does not round-trip: %v", len(got), err)
			}
		}
	})
}

// BenchmarkCompress compresses an envelope-sized text of numbers (what a
// link with weights holds) after the dictionary: the page encodes its link
// after every change, so what one Compress allocates is garbage its steps
// collect.
func BenchmarkCompress(b *testing.B) {
	raw, dict := inputs()["numbers"][:6000], dicts["dictionary"]
	b.ReportAllocs()
	for b.Loop() {
		Compress(raw, dict)
	}
}
