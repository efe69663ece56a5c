//go:build js && wasm

package lessons

import (
	"strconv"
	"strings"

	"tapelab/wasm/app"
	"tapelab/wasm/dom"
	"tapelab/wasm/lesson"
)

// travel is how lessons come and go: the Lessons menu of the shell's
// bar (the built-in lessons, one click each; a new lesson; a lesson file
// to open) and, on the lesson panel, "Copy lesson link" (the lesson's own
// link when it fits link.Budget, else a short link from the share
// service), the JSON download and Close.
type travel struct {
	lv   *View
	bar  dom.Elem // the panel's tools, the share control's region
	url  dom.Elem // the last link copied
	copy dom.Elem
	note dom.Elem
	file dom.Elem // the file input of the menu
}

// maxFile bounds a lesson file the page reads.
const maxFile = 4 << 20

// tools builds the lesson panel's tools (with the author's Edit switch)
// and returns them.
func (t *travel) tools() dom.Elem {
	u, lv := t.lv.u, t.lv
	t.copy = u.Button("Copy lesson link", "Copy a link that opens this lesson at its first stop", t.copyLink, "id", "lesson-copy")
	t.url = u.El("input", "type", "text", "readonly", "", "id", "lesson-url", "class", "mono", "aria-label", "Link to this lesson", "hidden", "")
	t.note = u.Txt("span", "", "class", "muted small", "id", "lesson-note", "role", "status")
	t.bar = dom.Add(u.El("div", "class", "lesson-tools"), lv.tools.edit, t.copy,
		u.Button("Download JSON", "Save the lesson as a JSON file (open it again from the Lessons menu)", t.download, "id", "lesson-download"),
		u.Button("Close", "Close the lesson; the playground keeps what it shows", lv.close, "id", "lesson-close"),
		t.url, t.note)
	return t.bar
}

// menu is the Lessons menu of the shell's bar. Its built-in lessons are
// listed when it is first opened (listBuiltins): reading them is start-up
// work that the page's first view and first step do not need.
func (t *travel) menu() dom.Elem {
	u, lv := t.lv.u, t.lv
	pop := u.El("div", "class", "pop lessons-list")
	newLesson := u.Button("+ New lesson", "Start a lesson: set up the playground, then add each state as a stop", func() {
		t.closeMenu()
		lv.open(&lesson.Lesson{Title: "My lesson"}, true)
	}, "id", "lesson-new")
	pop.AppendChild(newLesson)
	t.file = u.El("input", "type", "file", "accept", ".json,application/json", "id", "lesson-file")
	u.Listen(t.file, "change", "lesson file", func(dom.Event) { t.openFile() })
	pop.AppendChild(u.Labelled("Open a lesson file", t.file, "class", "file"))
	summary := u.Txt("summary", "Lessons")
	menu := dom.Add(u.El("details", "class", "lessons", "id", "lessons-menu"), summary, pop)
	listed := false
	list := func(dom.Event) {
		if !listed {
			listed = true
			t.listBuiltins(newLesson)
		}
	}
	// A click on the summary lists them before the menu opens; toggle
	// covers a menu opened another way.
	u.Listen(summary, "click", "Lessons menu", list)
	u.Listen(menu, "toggle", "Lessons menu", list)
	return menu
}

// listBuiltins puts a button per built-in lesson before the menu's
// button before.
func (t *travel) listBuiltins(before dom.Elem) {
	u, lv := t.lv.u, t.lv
	builtins, err := lesson.Builtins()
	if err != nil {
		before.Before(u.Txt("p", err.Error(), "class", "lesson-msg"))
	}
	for _, b := range builtins {
		b := b
		before.Before(u.Button(b.Lesson.Title, "Open the lesson “"+b.Lesson.Title+"” ("+strconv.Itoa(len(b.Lesson.Stops))+" stops)", func() {
			l, err := lesson.Builtins() // a fresh copy: the author's edits never reach the menu
			if err == nil {
				for _, c := range l {
					if c.Name == b.Name {
						t.closeMenu()
						lv.open(c.Lesson, false)
					}
				}
			}
		}, "id", "lesson-builtin-"+b.Name))
	}
}

// closeMenu closes the Lessons menu and the top bar's menu around it, so
// that the lesson chosen is in view.
func (t *travel) closeMenu() {
	t.lv.u.ByID("lessons-menu").RemoveAttribute("open")
	t.lv.deps.CloseMenu()
}

// render resets the copied link when the lesson changes stop or mode.
func (t *travel) render() {
	t.note.SetTextContent("")
}

// openFile reads the chosen lesson file and plays it.
func (t *travel) openFile() {
	lv := t.lv
	tooLarge := dom.ReadFile(lv.u, t.file, maxFile, func(text string) {
		t.closeMenu()
		if err := lv.OpenDocument([]byte(text)); err != nil {
			lv.deps.LinkError("This lesson file could not be opened: " + err.Error())
			return
		}
		lv.deps.LinkError("")
	})
	if tooLarge {
		lv.deps.LinkError("This lesson file is larger than " + strconv.Itoa(maxFile>>20) + " MB: not a lesson.")
	}
	t.file.SetValue("")
}

// download saves the lesson's canonical document.
func (t *travel) download() {
	doc, err := lesson.Encode(t.lv.l)
	if err != nil {
		t.say("No file: " + err.Error())
		return
	}
	dom.Download(t.lv.u, string(doc), fileName(t.lv.l.Title)+".lesson.json", "application/json")
	t.say("Downloaded.")
}

// fileName turns a title into a file name: letters and digits, the rest
// one dash.
func fileName(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	if s := strings.TrimSuffix(b.String(), "-"); s != "" {
		return s
	}
	return "lesson"
}

// copyLink copies the lesson's link: the lesson itself when it fits
// link.Budget, else the short link the share service answers.
func (t *travel) copyLink() {
	url, fits, err := lesson.Link(t.lv.deps.Base(), t.lv.l)
	if err != nil {
		t.say("No link: " + err.Error())
		return
	}
	t.url.RemoveAttribute("data-short")
	if fits {
		t.put(url, "Lesson link copied.")
		return
	}
	doc, err := lesson.Encode(t.lv.l)
	if err != nil {
		t.say("No link: " + err.Error())
		return
	}
	t.say("The lesson is " + strconv.Itoa(len(url)) + " characters as a link; asking the share service for a short one…")
	go func() {
		status, body, err := dom.FetchText("POST", "api/share", string(doc))
		dom.Recovered("lesson short link", t.lv.u.Report, func() {
			path, err := app.CreatedShare(status, body, err)
			if err != nil {
				t.say("This lesson is too long for a link (" + strconv.Itoa(len(url)) + " characters), and short links need TapeLab's share service, and " + err.Error() + ". Download it as a file instead.")
				return
			}
			short := dom.CurrentLocation().Origin + path
			t.url.SetAttribute("data-short", short)
			t.put(short, "Short lesson link copied.")
		})
	}()
}

// put shows url, selected, and copies it.
func (t *travel) put(url, done string) {
	t.url.SetValue(url)
	t.url.Show(true)
	t.url.SetAttribute("data-link", url)
	t.url.Select()
	dom.CopyToClipboard(t.lv.u, url, func(ok bool) {
		if ok {
			t.say(done)
		} else {
			t.say("Select the link and copy it (Ctrl+C).")
		}
	})
}

func (t *travel) say(msg string) { t.note.SetTextContent(msg) }
