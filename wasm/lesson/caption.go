package lesson

import "strings"

// Block is one paragraph of a caption.
type Block struct {
	Spans []Span
}

// Span is a run of caption text with one style. The page renders each
// span as a text node (inside <strong> or <code> when styled, a <br> for
// a Break), never as HTML, so whatever a caption holds shows as written.
type Span struct {
	// Text is the run's text exactly as written (empty for a Break).
	Text string
	// Bold and Code style the run; a run inside `code` is never bold.
	Bold, Code bool
	// Break is a line break inside the paragraph.
	Break bool
}

// Parse reads a caption in the caption format:
//
//   - paragraphs are separated by one or more blank lines (lines of
//     spaces and tabs count as blank);
//   - inside a paragraph, a newline is a line break;
//   - **text** is bold and `text` is code; code is literal (no bold inside
//     it) and may sit inside bold; a marker without its closing partner in
//     the same paragraph is plain text;
//   - everything else, HTML included, is plain text.
//
// Leading and trailing blank lines are dropped; an empty caption gives no
// blocks. Parse never fails: every text is a caption.
func Parse(caption string) []Block {
	var out []Block
	for _, para := range paragraphs(caption) {
		out = append(out, Block{Spans: inline(para)})
	}
	return out
}

// paragraphs splits text at blank lines, dropping empty paragraphs.
func paragraphs(text string) []string {
	var out []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.Join(cur, "\n"))
			cur = nil
		}
	}
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		cur = append(cur, line)
	}
	flush()
	return out
}

// inline splits one paragraph into styled spans.
func inline(p string) []Span {
	var spans []Span
	var text strings.Builder
	bold := false
	emit := func(code bool) {
		if text.Len() > 0 {
			s := Span{Text: text.String(), Bold: bold && !code, Code: code}
			if n := len(spans); n > 0 && !code && !spans[n-1].Code && !spans[n-1].Break && spans[n-1].Bold == s.Bold {
				spans[n-1].Text += s.Text
			} else {
				spans = append(spans, s)
			}
			text.Reset()
		}
	}
	for i := 0; i < len(p); {
		switch {
		case p[i] == '\n':
			emit(false)
			spans = append(spans, Span{Break: true})
			i++
		case p[i] == '`':
			end := strings.IndexByte(p[i+1:], '`')
			if end < 0 || end == 0 {
				text.WriteByte('`')
				i++
				continue
			}
			emit(false)
			text.WriteString(p[i+1 : i+1+end])
			emit(true)
			i += end + 2
		case strings.HasPrefix(p[i:], "**"):
			if bold || closes(p[i+2:]) {
				emit(false)
				bold = !bold
			} else {
				text.WriteString("**")
			}
			i += 2
		default:
			text.WriteByte(p[i])
			i++
		}
	}
	emit(false)
	return spans
}

// closes reports whether rest (the text after an opening **) holds a
// closing ** outside code spans, with text before it.
func closes(rest string) bool {
	for i := 0; i < len(rest); {
		switch {
		case rest[i] == '`':
			end := strings.IndexByte(rest[i+1:], '`')
			if end <= 0 {
				i++
				continue
			}
			i += end + 2
		case strings.HasPrefix(rest[i:], "**"):
			return i > 0
		default:
			i++
		}
	}
	return false
}
