//go:build !js

package e2e

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// lessonTab is one browser tab playing or authoring lessons.
type lessonTab struct {
	t       *testing.T
	tab     context.Context
	dialogs *atomic.Int32 // JavaScript dialogs (alert, confirm) the page opened
}

// newLessonTab opens url in a fresh browser and counts the dialogs the
// page opens.
func newLessonTab(t *testing.T, url string) *lessonTab {
	t.Helper()
	tab := newBrowser(t)
	n := new(atomic.Int32)
	if err := chromedp.Listen(tab, func(ev any) {
		if _, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			n.Add(1)
			go chromedp.Call(tab, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(tab, page.Enable, page.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	openPage(t, tab, url)
	return &lessonTab{t: t, tab: tab, dialogs: n}
}

// js evaluates a JavaScript expression as a string.
func (l *lessonTab) js(expr string) string {
	l.t.Helper()
	return eval[string](l.t, l.tab, `String(`+expr+`)`)
}

// wait polls cond for up to 10 s.
func (l *lessonTab) wait(cond string) {
	l.t.Helper()
	waitJS(l.t, l.tab, cond)
}

// click clicks the element with id.
func (l *lessonTab) click(id string) {
	l.t.Helper()
	click(l.t, l.tab, "#"+id)
}

// typeText clicks the field id, selects what it holds and types s.
func (l *lessonTab) typeText(id, s string) {
	l.t.Helper()
	if err := chromedp.Do(l.tab, chromedp.Click(chromedp.ID(id)),
		chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)), chromedp.KeyEvent(kb.Delete), chromedp.KeyEvent(s)); err != nil {
		l.t.Fatalf("typing into #%s: %v\n%s", id, err, pageError(l.tab))
	}
}

// press presses a key as a person does (focus on the page's body).
func (l *lessonTab) press(k string) {
	l.t.Helper()
	eval[bool](l.t, l.tab, `(document.activeElement && document.activeElement.blur(), true)`)
	if err := chromedp.Do(l.tab, chromedp.KeyEvent(k)); err != nil {
		l.t.Fatal(err)
	}
}

// stop returns the lesson's current stop as "3 / 8".
func (l *lessonTab) stop() string { return l.js(`document.getElementById("lesson-count").textContent`) }

// waitStop waits until the stop bar says want ("3 / 8").
func (l *lessonTab) waitStop(want string) {
	l.t.Helper()
	l.wait(fmt.Sprintf(`document.getElementById("lesson-count").textContent === %q`, want))
}

// pressUntil presses k until the stop bar says want (at most 10 times).
func (l *lessonTab) pressUntil(k, want string) {
	l.t.Helper()
	for range 10 {
		if l.stop() == want {
			return
		}
		l.press(k)
		time.Sleep(150 * time.Millisecond)
	}
	l.t.Fatalf("pressing %q never reached stop %s (at %s)", k, want, l.stop())
}

// forward reads the forward counter, "forward 3/12".
func (l *lessonTab) forward() string {
	return l.js(`document.getElementById("count-forward").textContent`)
}

// shot saves a screenshot at w × h.
func (l *lessonTab) shot(name string, w, h int64) {
	l.t.Helper()
	if err := chromedp.Do(l.tab, chromedp.EmulateViewport(w, h)); err != nil {
		l.t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	png, err := chromedp.Run(l.tab, chromedp.CaptureScreenshot())
	if err != nil {
		l.t.Fatal(err)
	}
	saveScreenshot(l.t, fmt.Sprintf("lesson-%s-%dx%d", name, w, h), png)
}

// values reads the numbers of a data-values attribute.
func (l *lessonTab) values(id string) []float64 {
	l.t.Helper()
	s := l.js(fmt.Sprintf(`document.getElementById(%q).dataset.values`, id))
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			l.t.Fatalf("#%s holds %q", id, s)
		}
		out = append(out, v)
	}
	return out
}

// openBuiltin opens a built-in lesson from the Lessons menu.
func (l *lessonTab) openBuiltin(name string) {
	l.t.Helper()
	click(l.t, l.tab, "#lessons-menu summary")
	l.click("lesson-builtin-" + name)
	l.wait(`!document.getElementById("lesson").hidden && document.getElementById("lesson-count").textContent.startsWith("1 / ")`)
}

// TestLessonScreenshots opens a built-in lesson at 1280×720 and at
// 1920×1080 (a projector): a stop with a caption and its question, and the
// verdict after a prediction.
func TestLessonScreenshots(t *testing.T) {
	srv := startServer(t, playgroundHandler(t))
	l := newLessonTab(t, srv.URL+"/")
	l.openBuiltin("fan-in")
	for _, size := range [][2]int64{{1280, 720}, {1920, 1080}} {
		l.click("lesson-prev") // a no-op on the first stop
		l.pressUntil(kb.PageDown, "3 / 5")
		l.shot("caption", size[0], size[1])
		l.typeText("lesson-guess", "6")
		l.click("lesson-check")
		l.wait(`document.getElementById("lesson-verdict").dataset.right !== undefined`)
		l.shot("prediction", size[0], size[1])
		if got := l.js(`document.getElementById("lesson-verdict").dataset.right`); got != "false" {
			t.Errorf("6 for dy/dx = 7 was graded right=%s", got)
		}
		l.click("lesson-back")
		l.wait(`document.getElementById("lesson-verdict").hidden`)
		l.pressUntil("p", "1 / 5")
	}
	if n := l.dialogs.Load(); n != 0 {
		t.Errorf("the page opened %d dialogs", n)
	}
}
