package lesson

import (
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	p := func(spans ...Span) Block { return Block{Spans: spans} }
	text := func(s string) Span { return Span{Text: s} }
	bold := func(s string) Span { return Span{Text: s, Bold: true} }
	code := func(s string) Span { return Span{Text: s, Code: true} }
	br := Span{Break: true}
	tests := []struct {
		name, in string
		want     []Block
	}{
		{"empty", "", nil},
		{"blank lines only", "\n \n\t\n", nil},
		{"plain", "just text", []Block{p(text("just text"))}},
		{"paragraphs", "one\n\ntwo\n \n\nthree", []Block{p(text("one")), p(text("two")), p(text("three"))}},
		{"line break", "one\ntwo", []Block{p(text("one"), br, text("two"))}},
		{"crlf", "one\r\ntwo\r\n\r\nthree", []Block{p(text("one"), br, text("two")), p(text("three"))}},
		{"bold", "a **b** c", []Block{p(text("a "), bold("b"), text(" c"))}},
		{"code", "run `x = 1` now", []Block{p(text("run "), code("x = 1"), text(" now"))}},
		{"code is literal", "`**not bold**`", []Block{p(code("**not bold**"))}},
		{"code in bold", "**see `dW` here**", []Block{p(bold("see "), code("dW"), bold(" here"))}},
		{"bold across a break", "**a\nb**", []Block{p(bold("a"), br, bold("b"))}},
		{"unclosed bold", "2 ** 3", []Block{p(text("2 ** 3"))}},
		{"unclosed code", "a ` b", []Block{p(text("a ` b"))}},
		{"empty code", "a `` b", []Block{p(text("a `` b"))}},
		{"empty bold", "****", []Block{p(text("****"))}},
		{"bold does not cross paragraphs", "**a\n\nb**", []Block{p(text("**a")), p(text("b**"))}},
		{"html img", "<img src=x onerror=alert(1)>", []Block{p(text("<img src=x onerror=alert(1)>"))}},
		{"html script", "<script>alert(1)</script>", []Block{p(text("<script>alert(1)</script>"))}},
		{"html in bold and code", "**<b>x</b>** `<script>alert(1)</script>`", []Block{p(bold("<b>x</b>"), text(" "), code("<script>alert(1)</script>"))}},
		{"entities stay text", "&lt;script&gt; &amp;", []Block{p(text("&lt;script&gt; &amp;"))}},
		{"unicode", "dL/da = −2·b ✓", []Block{p(text("dL/da = −2·b ✓"))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Parse(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse(%q) =\n %+v\nwant\n %+v", tt.in, got, tt.want)
			}
		})
	}
}

// TestParseKeepsText: whatever the caption, the spans hold all of its
// text (markers and paragraph breaks aside), so nothing a teacher types is
// lost or turned into markup.
func TestParseKeepsText(t *testing.T) {
	for _, in := range []string{"<img src=x onerror=alert(1)>", "a **b `c` d** e", "x ** y ` z", "**a** **", "`a` `b"} {
		var got string
		for _, b := range Parse(in) {
			for _, s := range b.Spans {
				got += s.Text
			}
		}
		stripped := 0
		for _, r := range in {
			if r == '*' || r == '`' {
				stripped++
			}
		}
		if len(got) < len(in)-stripped {
			t.Errorf("Parse(%q) keeps only %q", in, got)
		}
	}
}
