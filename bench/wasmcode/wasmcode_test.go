package wasmcode

import (
	"strings"
	"testing"
)

// module assembles a small module by hand: one imported function, two
// function bodies and, when names is set, a name section naming them.
func module(names bool) []byte {
	b := []byte("\x00asm\x01\x00\x00\x00")
	section := func(id byte, content []byte) {
		b = append(b, id, byte(len(content)))
		b = append(b, content...)
	}
	section(1, []byte{1, 0x60, 0, 0})                                  // type: func() -> ()
	section(2, append([]byte{1, 2, 'g', 'o', 3, 'r', 'u', 'n'}, 0, 0)) // import go.run: func type 0
	section(3, []byte{2, 0, 0})                                        // function: two of type 0
	section(10, []byte{2, 2, 0, 0x0b, 4, 0, 0x01, 0x01, 0x0b})         // code: bodies of 2 and 4 bytes
	if names {
		var n []byte
		n = append(n, 4, 'n', 'a', 'm', 'e')
		fn := []byte{2}
		for i, name := range []string{"net_http.__Server_.Serve", "main.main"} {
			fn = append(fn, byte(1+i), byte(len(name)))
			fn = append(fn, name...)
		}
		n = append(n, 1, byte(len(fn)))
		n = append(n, fn...)
		section(0, n)
	}
	return b
}

func TestParse(t *testing.T) {
	m, err := Parse(module(true))
	if err != nil {
		t.Fatal(err)
	}
	if !m.Named || len(m.Funcs) != 2 {
		t.Fatalf("Named %v, %d functions; want a named module with 2", m.Named, len(m.Funcs))
	}
	if f := m.Funcs[0]; f.Name != "net_http.__Server_.Serve" || len(f.Code) != 2 {
		t.Errorf("first function %q with %d bytes", f.Name, len(f.Code))
	}
	var names []string
	total := 8
	for _, s := range m.Sections {
		names = append(names, s.Name)
		total += s.Size
	}
	if got := strings.Join(names, " "); got != "type import function code custom:name" {
		t.Errorf("sections %s", got)
	}
	if total != m.Size {
		t.Errorf("the sections and the header add up to %d bytes, the module has %d", total, m.Size)
	}
	shares := m.Packages([]string{"net/http", "fmt"})
	if len(shares) != 2 || shares[0].Package != "main" || shares[0].Funcs != 1 || shares[0].Bytes != 4 || len(shares[0].Code) != 4 {
		t.Fatalf("shares %+v, want main's 4 bytes first", shares)
	}
	if shares[1].Package != "net/http" || shares[1].Bytes != 2 {
		t.Errorf("second share %+v, want net/http with 2 bytes", shares[1])
	}

	m, err = Parse(module(false))
	if err != nil {
		t.Fatal(err)
	}
	if m.Named || m.Packages(nil)[0].Package != "(unnamed)" {
		t.Errorf("a module without names: Named %v, packages %+v", m.Named, m.Packages(nil))
	}
}

func TestParseRejectsDamage(t *testing.T) {
	full := module(true)
	for n := range len(full) {
		if n == 8 {
			continue // the header alone is an empty module
		}
		if _, err := Parse(full[:n]); err == nil {
			// Cutting between two sections leaves a valid module.
			if m, _ := Parse(full[:n]); m != nil && n > 8 && sectionEnd(full, n) {
				continue
			}
			t.Errorf("the first %d of %d bytes parsed without an error", n, len(full))
		}
	}
	if _, err := Parse([]byte("\x00asm\x02\x00\x00\x00")); err == nil || !strings.Contains(err.Error(), "version") {
		t.Errorf("version 2: err = %v", err)
	}
}

// sectionEnd reports whether n is where a section of b ends.
func sectionEnd(b []byte, n int) bool {
	for off := 8; off < len(b); {
		off += 2 + int(b[off+1])
		if off == n {
			return true
		}
	}
	return false
}

func TestPackageOf(t *testing.T) {
	paths := []string{"net/http", "vendor/golang.org/x/net/http/httpguts", "slices", "github.com/syumai/workers", "gopkg.in/yaml.v3", "main"}
	spelled := map[string]string{}
	for _, p := range paths {
		spelled[nameSection(p)] = p
	}
	for fn, want := range map[string]string{
		"net_http.__Server_.Serve":                          "net/http",
		"vendor_golang.org_x_net_http_httpguts.headerValue": "vendor/golang.org/x/net/http/httpguts",
		"slices.SortFunc_go.shape.int_":                     "slices",
		"github.com_syumai_workers.Serve":                   "github.com/syumai/workers",
		"gopkg.in_yaml.v3.Marshal":                          "gopkg.in/yaml.v3",
		"main.main":                                         "main",
		"type_.eq.main.T":                                   "type_",
		"wasm_export_run":                                   "wasm_export_run",
		"":                                                  "(unnamed)",
	} {
		if got := packageOf(fn, spelled); got != want {
			t.Errorf("packageOf(%q) = %q, want %q", fn, got, want)
		}
	}
}
