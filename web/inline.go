package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"io/fs"
	"regexp"
	"slices"
	"strings"
)

// What the browser must fetch before it paints the page: its stylesheets
// and its parser-blocking scripts (a script without async or defer; the
// first view's fitting script is one). inlineFirstPaint writes them into
// the page, so that the first view paints once the page itself has
// arrived, a round trip sooner on a slow network (and without sharing the
// bandwidth with the wasm's download). Scripts with async or defer stay
// files: the page does not wait for them to paint.
var (
	stylesheetTag = regexp.MustCompile(`<link rel="stylesheet" href="([^"]+)">`)
	blockingTag   = regexp.MustCompile(`<script( id="[^"]*")? src="([^"]+)"></script>`)
)

// inlineFirstPaint returns page with the stylesheets and parser-blocking
// scripts it links to from fsys written into it (<style>, <script>), and
// the names of the files it wrote in. A file that cannot be read, or that
// would end its element early, stays a link.
func inlineFirstPaint(page []byte, fsys fs.FS) ([]byte, []string) {
	var names []string
	// inline replaces each match of tag whose file (the submatch file)
	// fsys holds with open, the file's bytes and end.
	inline := func(tag *regexp.Regexp, file int, open func(m [][]byte) string, end string) {
		page = tag.ReplaceAllFunc(page, func(link []byte) []byte {
			m := tag.FindSubmatch(link)
			name := string(m[file])
			src, err := fs.ReadFile(fsys, name)
			if err != nil || bytes.Contains(bytes.ToLower(src), []byte(strings.TrimSuffix(end, ">"))) {
				return link
			}
			names = append(names, name)
			return slices.Concat([]byte(open(m)), src, []byte(end))
		})
	}
	inline(stylesheetTag, 1, func([][]byte) string { return "<style>" }, "</style>")
	inline(blockingTag, 2, func(m [][]byte) string { return "<script" + string(m[1]) + ">" }, "</script>")
	return page, names
}

// inlineElement finds the page's inline scripts (a <script> with no
// attribute but an id: not a data block such as the shared document's
// JSON) and style elements.
var inlineElement = regexp.MustCompile(`(?s)<(script|style)(?: id="[^"]*")?>(.*?)</(?:script|style)>`)

// inlineSources returns the CSP sources that allow exactly page's inline
// scripts and styles, by directive: "script-src" and "style-src" to the
// 'sha256-…' of each such element (nil when the page has none).
func inlineSources(page []byte) map[string][]string {
	var add map[string][]string
	for _, m := range inlineElement.FindAllSubmatch(page, -1) {
		if add == nil {
			add = map[string][]string{}
		}
		sum := sha256.Sum256(m[2])
		d := string(m[1]) + "-src"
		add[d] = append(add[d], "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	}
	return add
}

// addSources returns the Content-Security-Policy policy with sources added
// to the directives they are listed under.
func addSources(policy string, sources map[string][]string) string {
	if len(sources) == 0 {
		return policy
	}
	directives := strings.Split(policy, "; ")
	for i, d := range directives {
		name, _, _ := strings.Cut(d, " ")
		if add := sources[name]; add != nil {
			directives[i] = d + " " + strings.Join(add, " ")
		}
	}
	return strings.Join(directives, "; ")
}
