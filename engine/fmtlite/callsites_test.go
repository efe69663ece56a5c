//go:build !js

package fmtlite_test

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// pagePackage is what go list says of one package the playground links.
type pagePackage struct {
	ImportPath, Dir, Export string
	GoFiles, Imports        []string
}

// pagePackages lists the packages tapelab/wasm links for GOOS=js
// GOARCH=wasm, dependencies first, with their compiled export data.
func pagePackages(t *testing.T) []pagePackage {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-export", "-json=ImportPath,Dir,Export,GoFiles,Imports", "tapelab/wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps -export tapelab/wasm: %v\n%s", err, stderr.Bytes())
	}
	var pkgs []pagePackage
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var p pagePackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// own reports whether p is one of the project's packages.
func own(p pagePackage) bool { return strings.HasPrefix(p.ImportPath, "tapelab/") }

// TestPageImportsNoFmtOrReflect keeps the project's own packages in the
// playground off fmt, reflect and internal/fmtsort: they format with
// fmtlite, whose call sites TestCallSites checks, until fmt replaces it.
// The standard library's and gonum's packages the page links may import
// them: compress/flate (the links' codec) and gonum's diff/fd (the gradient
// check), the standard parts the page uses in place of copies of its own
// (issue 37), bring fmt and reflect with them, at a cost bench/README.md
// measures.
func TestPageImportsNoFmtOrReflect(t *testing.T) {
	banned := []string{"fmt", "reflect", "internal/fmtsort"}
	n := 0
	for _, p := range pagePackages(t) {
		if !own(p) {
			continue
		}
		n++
		for _, banned := range banned {
			if slices.Contains(p.Imports, banned) {
				t.Errorf("%s imports %s; the project's packages in the playground format with tapelab/engine/fmtlite", p.ImportPath, banned)
			}
		}
	}
	if n < 10 {
		t.Fatalf("go list found %d of the project's packages in the page, want the engine's and the page's", n)
	}
}

// printfFunc says how a function formats: the index of its format
// parameter (-1 for Sprint and Fprintln, which take operands only) and
// whether %w wraps (Errorf).
type printfFunc struct {
	format int
	wrap   bool
}

// TestCallSites type-checks the packages the playground links and checks
// every call of fmtlite's functions, and of the project's functions that
// pass a format and its operands on to them: the format must be a
// constant whose directives fmtlite supports for the operands' static
// types (the kinds that TestSprintfMatchesFmt compares with fmt).
func TestCallSites(t *testing.T) {
	pkgs := pagePackages(t)
	exports := map[string]string{}
	for _, p := range pkgs {
		exports[p.ImportPath] = p.Export
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		return os.Open(exports[path])
	})
	funcs := map[string]printfFunc{
		"tapelab/engine/fmtlite.Sprintf":  {0, false},
		"tapelab/engine/fmtlite.Errorf":   {0, true},
		"tapelab/engine/fmtlite.Fprintf":  {1, false},
		"tapelab/engine/fmtlite.Sprint":   {-1, false},
		"tapelab/engine/fmtlite.Fprintln": {-1, false},
	}
	calls := 0
	for _, p := range pkgs {
		if !own(p) || p.ImportPath == "tapelab/engine/fmtlite" {
			continue
		}
		var files []*ast.File
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		info := &types.Info{
			Types: map[ast.Expr]types.TypeAndValue{},
			Uses:  map[*ast.Ident]types.Object{},
			Defs:  map[*ast.Ident]types.Object{},
		}
		conf := types.Config{Importer: imp, Sizes: types.SizesFor("gc", "wasm")}
		if _, err := conf.Check(p.ImportPath, fset, files, info); err != nil {
			t.Fatalf("type-checking %s: %v", p.ImportPath, err)
		}
		c := checker{t: t, fset: fset, info: info, funcs: funcs, forwarding: map[*ast.CallExpr]bool{}}
		// A wrapper may wrap a wrapper declared after it: look again
		// until no new one is found.
		for found := true; found; {
			found = false
			for _, f := range files {
				found = c.findWrappers(f) || found
			}
		}
		for _, f := range files {
			calls += c.check(f)
		}
	}
	t.Logf("checked %d calls of %d printf-like functions", calls, len(funcs))
	if calls < 200 {
		t.Errorf("checked %d calls, want the page's 400 or so: is the test still finding them?", calls)
	}
}

type checker struct {
	t     *testing.T
	fset  *token.FileSet
	info  *types.Info
	funcs map[string]printfFunc // by types.Func.FullName

	// forwarding holds the calls in which a wrapper passes on its own
	// format and operands.
	forwarding map[*ast.CallExpr]bool
}

// calleeName returns the full name of the function a call calls, or "".
func (c *checker) calleeName(call *ast.CallExpr) string {
	var id *ast.Ident
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = fun
	case *ast.SelectorExpr:
		id = fun.Sel
	default:
		return ""
	}
	if fn, ok := c.info.Uses[id].(*types.Func); ok {
		return fn.FullName()
	}
	return ""
}

// callee returns the printf-like function a call calls, if any.
func (c *checker) callee(call *ast.CallExpr) (printfFunc, bool) {
	pf, ok := c.funcs[c.calleeName(call)]
	return pf, ok
}

// findWrappers records the functions of f that pass their own format
// parameter and variadic operands to a printf-like function, and reports
// whether it found a new one.
func (c *checker) findWrappers(f *ast.File) bool {
	found := false
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		fn := c.info.Defs[fd.Name].(*types.Func)
		if _, known := c.funcs[fn.FullName()]; known {
			continue
		}
		sig := fn.Signature()
		if !sig.Variadic() {
			continue
		}
		params := sig.Params()
		variadic := params.At(params.Len() - 1)
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !call.Ellipsis.IsValid() {
				return true
			}
			pf, ok := c.callee(call)
			if !ok || pf.format < 0 {
				return true
			}
			last, _ := call.Args[len(call.Args)-1].(*ast.Ident)
			format, _ := call.Args[pf.format].(*ast.Ident)
			if last == nil || format == nil || c.info.Uses[last] != variadic {
				return true
			}
			for i := range params.Len() - 1 {
				if c.info.Uses[format] == params.At(i) {
					c.funcs[fn.FullName()] = printfFunc{i, pf.wrap}
					c.forwarding[call] = true
					found = true
				}
			}
			return true
		})
	}
	return found
}

// check checks the printf-like calls in f and returns how many it found.
func (c *checker) check(f *ast.File) int {
	calls := 0
	called := map[*ast.Ident]bool{} // the function names of calls
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			// Printf-like functions are called, never passed as values,
			// where the checks below would not see their operands.
			if fn, ok := c.info.Uses[n].(*types.Func); ok && !called[n] {
				if _, printf := c.funcs[fn.FullName()]; printf || fn.Pkg() != nil && fn.Pkg().Path() == "tapelab/engine/fmtlite" {
					c.errorf(n, "%s used as a value", fn.FullName())
				}
			}
		case *ast.CallExpr:
			switch fun := ast.Unparen(n.Fun).(type) {
			case *ast.Ident:
				called[fun] = true
			case *ast.SelectorExpr:
				called[fun.Sel] = true
			}
			pf, ok := c.callee(n)
			if !ok {
				return true
			}
			calls++
			if n.Ellipsis.IsValid() {
				if !c.forwarding[n] {
					c.errorf(n, "operands passed on with ... outside a wrapper that passes on its own format")
				}
				return true
			}
			if pf.format < 0 {
				args := n.Args
				if c.calleeName(n) == "tapelab/engine/fmtlite.Fprintln" {
					args = args[1:]
				}
				for _, a := range args {
					c.operand(a, 'v', false, false)
					if named, ok := c.info.Types[a].Type.(*types.Named); ok && len(n.Args) > 1 && isString(named) {
						c.errorf(a, "Sprint spaces operands of a named string type as fmt would not")
					}
				}
				return true
			}
			c.format(n, pf)
		}
		return true
	})
	return calls
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// format checks a call's constant format against its operands.
func (c *checker) format(call *ast.CallExpr, pf printfFunc) {
	tv := c.info.Types[call.Args[pf.format]]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		c.errorf(call, "the format is not a constant string")
		return
	}
	format := constant.StringVal(tv.Value)
	args := call.Args[pf.format+1:]
	n := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		start := i
		prec := false
		if i < len(format) && format[i] == '.' {
			prec = true
			for i++; i < len(format) && '0' <= format[i] && format[i] <= '9'; i++ {
			}
		}
		if i >= len(format) {
			c.errorf(call, "format %q ends in %%", format)
			return
		}
		verb, size := utf8.DecodeRuneInString(format[i:])
		if verb == '%' { // no operand, whatever its flags
			continue
		}
		if isFlagOrWidth(format[start]) {
			c.errorf(call, "format %q: flags, widths and argument indexes are not supported", format)
			return
		}
		i += size - 1
		if n >= len(args) {
			c.errorf(call, "format %q: no operand for %%%c", format, verb)
			return
		}
		c.operand(args[n], verb, prec, pf.wrap)
		n++
	}
	if n != len(args) {
		c.errorf(call, "format %q has %d directives for %d operands", format, n, len(args))
	}
}

func isFlagOrWidth(b byte) bool { return strings.IndexByte("+-# 0123456789*[", b) >= 0 }

var (
	errorType    = types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
	stringerType = types.NewInterfaceType([]*types.Func{
		types.NewFunc(token.NoPos, nil, "String", types.NewSignatureType(nil, nil, nil, nil,
			types.NewTuple(types.NewVar(token.NoPos, nil, "", types.Typ[types.String])), false)),
	}, nil).Complete()
)

// kindName returns the name of the kind in kinds that fmtlite's type
// switch picks for an operand of static type t, or "" for none.
// Operands of interface type are checked by the interface: error,
// Stringer, or any (whose dynamic value fmtlite handles at run time).
func kindName(t types.Type) string {
	switch {
	case types.Implements(t, errorType):
		return "error"
	case types.Implements(t, stringerType):
		return "Stringer"
	case types.IsInterface(t):
		if t.Underlying().(*types.Interface).Empty() {
			return "any"
		}
		return ""
	}
	switch t := types.Unalias(t).(type) {
	case *types.Basic:
		return types.Typ[types.Default(t).(*types.Basic).Kind()].String()
	case *types.Slice:
		if b, ok := types.Unalias(t.Elem()).(*types.Basic); ok {
			return "[]" + types.Typ[b.Kind()].String()
		}
	}
	return ""
}

// operand checks one operand for verb: %T takes any operand, %w an error
// in Errorf, and the other verbs the kinds of TestSprintfMatchesFmt.
func (c *checker) operand(a ast.Expr, verb rune, prec, wrap bool) {
	t := c.info.Types[a].Type
	name := kindName(t)
	switch {
	case verb == 'T':
		return
	case verb == 'w':
		if !wrap || name != "error" {
			c.errorf(a, "%%w of %s outside Errorf or not an error", t)
		}
		return
	case name == "any":
		if verb != 'v' || prec {
			c.errorf(a, "operand of type %s: only %%v", t)
		}
		return
	}
	for _, k := range kinds {
		if k.name == name {
			if !strings.ContainsRune(k.verbs, verb) || prec && !k.precision {
				c.errorf(a, "%%%c of %s (%s) is not supported", verb, t, name)
			}
			return
		}
	}
	c.errorf(a, "operand of type %s is not supported by fmtlite (convert a named type without a String method)", t)
}

func (c *checker) errorf(n ast.Node, format string, args ...any) {
	c.t.Helper()
	c.t.Errorf("%s: "+format, append([]any{c.fset.Position(n.Pos())}, args...)...)
}
