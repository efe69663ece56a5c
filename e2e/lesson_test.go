//go:build !js

package e2e

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"tapelab/wasm/app"
	"tapelab/wasm/lesson"
	"tapelab/wasm/link"
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
	// The lesson panel is built when a lesson first opens.
	l.wait(fmt.Sprintf(`document.getElementById("lesson-count")?.textContent === %q`, want))
}

// pressUntil presses k until the stop bar says want (at most 10 times),
// each time waiting for the bar to move.
func (l *lessonTab) pressUntil(k, want string) {
	l.t.Helper()
	for range 10 {
		at := l.stop()
		if at == want {
			return
		}
		l.press(k)
		l.wait(`document.getElementById("lesson-count").textContent !== ` + jsString(at))
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
	waitTapeFitted(l.t, l.tab)
	png, err := chromedp.Run(l.tab, chromedp.CaptureScreenshot())
	if err != nil {
		l.t.Fatal(err)
	}
	saveScreenshot(l.t, fmt.Sprintf("lesson-%s-%dx%d", name, w, h), png)
}

// values reads the numbers of a data-values attribute.
func (l *lessonTab) values(id string) []float64 {
	l.t.Helper()
	return parseValues(l.t, id, l.js(fmt.Sprintf(`document.getElementById(%q).dataset.values`, id)))
}

// openBuiltin opens a built-in lesson from the Lessons menu.
func (l *lessonTab) openBuiltin(name string) {
	l.t.Helper()
	click(l.t, l.tab, "#lessons-menu summary")
	l.click("lesson-builtin-" + name)
	l.wait(`document.getElementById("lesson")?.hidden === false && document.getElementById("lesson-count").textContent.startsWith("1 / ")`)
}

// TestLessonScreenshots opens a built-in lesson at 1280×720 and at
// 1920×1080 (a projector): a stop with a caption and its question, the
// verdict after a prediction, and the stop in presenter mode.
func TestLessonScreenshots(t *testing.T) {
	srv := startServer(t, playgroundHandler(t))
	l := newLessonTab(t, srv.URL+"/")
	l.openBuiltin("fan-in")
	for _, size := range [][2]int64{{1280, 720}, {1920, 1080}} {
		l.click("lesson-prev") // a no-op on the first stop
		l.pressUntil(kb.PageDown, "3 / 5")
		l.shot("caption", size[0], size[1])
		// With the explain drawer open, the inspector's column stays
		// readable: the drawer does not cover it.
		l.js(`(e => { if (e.hidden) document.getElementById("explain-toggle").click(); return true; })(document.getElementById("explain"))`)
		l.wait(`!document.getElementById("explain").hidden`)
		if over := l.js(explainOverInspector); over != "0" {
			t.Errorf("at %dx%d the explain drawer covers %s px² of the inspector", size[0], size[1], over)
		}
		// The tape is fitted beside the explanation: on a projector's
		// screen a column of its own, on a laptop's a drawer over the
		// tape's region.
		l.wait(explainOverTape + ` === ""`)
		l.shot("caption-explain", size[0], size[1])
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
	l.click("presenter-toggle")
	l.pressUntil(kb.PageDown, "3 / 5")
	l.shot("presenter", 1920, 1080)
	l.shot("presenter", 1280, 720)
	if n := l.dialogs.Load(); n != 0 {
		t.Errorf("the page opened %d dialogs", n)
	}
}

// explainOverInspector is the area, in CSS px², where the explain drawer
// lies over the inspector's column.
const explainOverInspector = `(() => {
  const a = document.getElementById("explain").getBoundingClientRect(), b = document.querySelector("#playground .inspector").getBoundingClientRect();
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return String(w > 0 && h > 0 ? Math.round(w * h) : 0);
})()`

// hostile is a caption that would run script if the page rendered it as
// HTML.
const hostile = `<img src=x onerror=alert(1)> <script>alert(1)</script>`

// TestLessonTeacherThenStudent authors a lesson from scratch by clicks and
// typing (three stops, a caption holding HTML, a number question and a
// sign question, reordering and deleting), copies its link and opens it in
// a fresh browser as a student: every stop is walked with the keys and
// buttons, a prediction is answered right and another wrong, the student
// wanders off and comes back to the stop, and nothing the captions hold
// runs.
func TestLessonTeacherThenStudent(t *testing.T) {
	ref := reference(t, app.DefaultDoc(), app.Modes{})
	s := ref.Stepper()
	out, param := s.Output(), ref.Recording().ParamNodes[0]
	s.ToEnd()
	loss, grad := s.Value(out).Data[0], s.Grad(param).Data[0]
	total := strconv.Itoa(s.Counts().ForwardTotal)

	srv := startServer(t, shareHandler(t))
	teacher := newLessonTab(t, srv.URL+"/")
	click(t, teacher.tab, "#lessons-menu summary")
	teacher.click("lesson-new")
	teacher.wait(`document.getElementById("lesson").dataset.mode === "author"`)
	teacher.typeText("lesson-title-input", "Backprop by hand")

	// Stop 1: the start; predict the loss.
	teacher.click("lesson-add")
	teacher.wait(`document.getElementById("lesson").dataset.stops === "1"`)
	teacher.typeText("lesson-caption", "The **loss** is the last node: `L`.\n\n"+hostile)
	teacher.click("lesson-ask-on")
	setValue(t, teacher.tab, "#lesson-q-of", "value")
	setValue(t, teacher.tab, "#lesson-q-node", strconv.Itoa(out))
	teacher.wait(`document.getElementById("lesson-stop-0").textContent.includes("asks")`)

	// Stop 2: the start of backward; predict a weight gradient's sign.
	teacher.press("b")
	teacher.click("lesson-add")
	teacher.wait(`document.getElementById("lesson").dataset.stops === "2"`)
	teacher.typeText("lesson-caption", "Backward starts at the loss with dL/dL = 1.")
	teacher.click("lesson-ask-on")
	setValue(t, teacher.tab, "#lesson-q-node", strconv.Itoa(param))
	setValue(t, teacher.tab, "#lesson-q-answer", "sign")
	if msg := teacher.js(`document.getElementById("lesson-q-error").hidden ? "" : document.getElementById("lesson-q-error").textContent`); msg != "" {
		t.Fatalf("the sign question was refused: %s", msg)
	}
	teacher.wait(`document.getElementById("lesson-stop-1").textContent.includes("asks")`)

	// Stop 3: the end.
	teacher.click("to-end")
	teacher.click("lesson-add")
	teacher.wait(`document.getElementById("lesson").dataset.stops === "3"`)
	teacher.typeText("lesson-caption", "Every gradient is **final**.")

	// Reorder and delete: up, down, add a fourth and delete it.
	order := func() string {
		return teacher.js(`[...document.querySelectorAll("#lesson-stops li > button.link")].map(b => b.textContent.slice(3, 12)).join("|")`)
	}
	want := order()
	teacher.click("lesson-up-2")
	if got := order(); got == want || !strings.HasPrefix(strings.Split(got, "|")[1], "Every") {
		t.Errorf("after moving stop 3 up the stops read %q (were %q)", got, want)
	}
	teacher.click("lesson-down-1")
	if got := order(); got != want {
		t.Errorf("after moving it back the stops read %q, want %q", got, want)
	}
	teacher.click("lesson-add")
	teacher.wait(`document.getElementById("lesson").dataset.stops === "4"`)
	teacher.click("lesson-delete-3")
	teacher.wait(`document.getElementById("lesson").dataset.stops === "3"`)
	if got := order(); got != want {
		t.Errorf("after adding and deleting a stop the stops read %q, want %q", got, want)
	}

	// Preview, then copy the lesson's link.
	teacher.click("lesson-play")
	teacher.wait(`document.getElementById("lesson").dataset.mode === "play"`)
	teacher.pressUntil(kb.PageUp, "1 / 3")
	teacher.click("lesson-copy")
	teacher.wait(`!!document.getElementById("lesson-url").dataset.link`)
	url := teacher.js(`document.getElementById("lesson-url").dataset.link`)
	if !strings.Contains(url, "#l1.") {
		t.Fatalf("the lesson link is %q", url)
	}
	if hash := teacher.js(`location.hash`); !strings.HasPrefix(hash, "#l1.") {
		t.Errorf("while the lesson plays the address holds %q, want the lesson", hash)
	}

	// The student, in a fresh browser.
	st := newLessonTab(t, url)
	st.wait(`document.getElementById("lesson").dataset.mode === "play"`)
	expectText(t, st.tab, "#lesson-title", "Backprop by hand")
	st.waitStop("1 / 3")
	caption := st.js(`document.getElementById("lesson-caption-view").innerText`)
	if !strings.Contains(caption, hostile) || !strings.Contains(caption, "The loss is the last node: L.") {
		t.Errorf("the caption shows %q, want its HTML as text", caption)
	}
	if n := st.js(`document.querySelectorAll("#lesson-caption-view img, #lesson-caption-view script, img[src=x]").length`); n != "0" {
		t.Errorf("the caption made %s elements", n)
	}
	if got := st.js(`document.querySelector("#lesson-caption-view strong").textContent + "|" + document.querySelector("#lesson-caption-view code").textContent`); got != "loss|L" {
		t.Errorf("bold and code: %q", got)
	}

	// Stop 1 asks for the loss: answered right.
	if f := st.forward(); f != "forward 0/"+total {
		t.Errorf("stop 1 stands at %q", f)
	}
	st.typeText("lesson-guess", strconv.FormatFloat(loss, 'g', 8, 64))
	st.click("lesson-check")
	st.wait(`document.getElementById("lesson-verdict").dataset.right !== undefined`)
	if got := st.js(`document.getElementById("lesson-verdict").dataset.right`); got != "true" {
		t.Errorf("the right loss was graded %s: %s", got, text(t, st.tab, "#lesson-verdict"))
	}
	actual, _ := strconv.ParseFloat(st.js(`document.getElementById("lesson-verdict").dataset.actual`), 64)
	if math.Abs(actual-loss) > 1e-12*math.Abs(loss) {
		t.Errorf("the page revealed %v, the engine computes %v", actual, loss)
	}

	// Wander off (step on), then back to the stop; step past the question.
	st.click("lesson-back")
	st.wait(`document.getElementById("lesson-verdict").hidden`)
	st.press(kb.ArrowRight)
	st.press(kb.ArrowRight)
	st.wait(`!document.getElementById("lesson-back").hidden`)
	if f := st.forward(); f != "forward 2/"+total {
		t.Errorf("after → → the page stands at %q", f)
	}
	st.click("lesson-back")
	st.wait(`document.getElementById("lesson-back").hidden && document.getElementById("count-forward").textContent === "forward 0/` + total + `"`)
	st.press("b")
	st.wait(`document.getElementById("lesson-verdict").textContent.includes("stepped past")`)
	st.click("lesson-back")
	st.wait(`document.getElementById("lesson-verdict").hidden && !document.getElementById("lesson-guess").disabled`)

	// Stop 2 asks for a sign: answered wrong.
	st.press(kb.PageDown)
	st.waitStop("2 / 3")
	wrong := "lesson-sign-minus"
	if grad < 0 {
		wrong = "lesson-sign-plus"
	}
	st.click(wrong)
	st.wait(`document.getElementById("lesson-verdict").dataset.right !== undefined`)
	if got := st.js(`document.getElementById("lesson-verdict").dataset.right`); got != "false" || !strings.Contains(text(t, st.tab, "#lesson-verdict"), "Wrong") {
		t.Errorf("the wrong sign was graded %s: %s", got, text(t, st.tab, "#lesson-verdict"))
	}

	// The rest of the walk: N, P, the buttons, and in presenter mode.
	st.press("n")
	st.waitStop("3 / 3")
	expectText(t, st.tab, "#lesson-caption-view", "Every gradient is final.")
	st.press("p")
	st.waitStop("2 / 3")
	st.click("lesson-prev")
	st.waitStop("1 / 3")
	st.click("presenter-toggle")
	st.press(kb.PageDown)
	st.waitStop("2 / 3")
	st.click("lesson-next")
	st.waitStop("3 / 3")
	if st.js(`document.documentElement.classList.contains("presenter")`) != "true" {
		t.Error("presenter mode did not stay on across stops")
	}
	if f := st.forward(); f != "forward "+total+"/"+total {
		t.Errorf("stop 3 stands at %q", f)
	}
	for _, l := range []*lessonTab{teacher, st} {
		if n := l.dialogs.Load(); n != 0 {
			t.Errorf("a page opened %d dialogs", n)
		}
	}
	if e := pageError(st.tab); !strings.Contains(e, "shows no error") {
		t.Error(e)
	}
}

// longLesson is a lesson too long for a link: twelve stops of the default
// model, each with a caption of its own words.
func longLesson(t *testing.T) *lesson.Lesson {
	l := &lesson.Lesson{Title: "A long walk"}
	seed := uint32(7)
	for i := range 12 {
		st := link.Default()
		var b strings.Builder
		fmt.Fprintf(&b, "Stop %d.", i+1)
		for range 90 {
			seed = seed*1664525 + 1013904223
			fmt.Fprintf(&b, " w%x", seed>>12)
		}
		l.Stops = append(l.Stops, lesson.Stop{State: st, Caption: b.String()})
	}
	return l
}

// TestLessonShortLink opens a lesson file too long for a link, downloads
// it again, asks for
// its link (the share service stores it and answers a short link) and
// opens the short link in a fresh browser, and its /embed/ page in
// another: the same lesson, stepped with the keys (in embed mode on the
// embed page).
func TestLessonShortLink(t *testing.T) {
	l := longLesson(t)
	doc, err := lesson.Encode(l)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "long.lesson.json")
	if err := os.WriteFile(file, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, shareHandler(t))
	teacher := newLessonTab(t, srv.URL+"/")
	click(t, teacher.tab, "#lessons-menu summary")
	if err := chromedp.Do(teacher.tab, chromedp.SetUploadFiles(chromedp.ID("lesson-file"), []string{file})); err != nil {
		t.Fatal(err)
	}
	teacher.waitStop("1 / 12")

	// Download it again: the file is the lesson's canonical document.
	dir := t.TempDir()
	downloaded := make(chan struct{})
	var once sync.Once
	if err := chromedp.ListenBrowser(teacher.tab, func(ev any) {
		if e, ok := ev.(*browser.EventDownloadProgress); ok && e.State == browser.DownloadProgressStateCompleted {
			once.Do(func() { close(downloaded) })
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.CallBrowser(teacher.tab, browser.SetDownloadBehavior,
		browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir, EventsEnabled: new(true)}); err != nil {
		t.Fatal(err)
	}
	teacher.click("lesson-download")
	select {
	case <-downloaded:
	case <-time.After(10 * time.Second):
		t.Fatal("the lesson's download did not complete")
	}
	saved := filepath.Join(dir, "a-long-walk.lesson.json")
	got, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(doc) {
		t.Errorf("the downloaded %s holds %d bytes, want the lesson's %d-byte document", saved, len(got), len(doc))
	}

	teacher.click("lesson-copy")
	teacher.wait(`!!document.getElementById("lesson-url").dataset.short`)
	short := teacher.js(`document.getElementById("lesson-url").dataset.short`)
	if !strings.Contains(short, "/s/") || len(short) > 200 {
		t.Fatalf("short link %q", short)
	}

	for _, u := range []string{short, strings.Replace(short, "/s/", "/embed/", 1)} {
		st := newLessonTab(t, u)
		st.waitStop("1 / 12")
		expectText(t, st.tab, "#lesson-title", "A long walk")
		embed := strings.Contains(u, "/embed/")
		if got := st.js(`document.documentElement.classList.contains("embed")`); got != strconv.FormatBool(embed) {
			t.Errorf("%s: embed mode is %s", u, got)
		}
		st.press(kb.PageDown)
		st.waitStop("2 / 12")
		expectText(t, st.tab, "#lesson-caption-view", l.Stops[1].Caption)
	}
}

// TestGradientHygiene runs the step to the end, switches "zero gradients
// before backward" off and runs backward again: every parameter's .grad is
// exactly twice what one pass gave, the card says why, and the link
// carries the switch; switched on again, another pass gives one pass's
// gradients.
func TestGradientHygiene(t *testing.T) {
	srv := startServer(t, playgroundHandler(t))
	l := newLessonTab(t, srv.URL+"/")
	if l.js(`document.getElementById("zero-grad").checked`) != "true" {
		t.Fatal("zero gradients before backward is not on by default")
	}
	l.click("to-end")
	l.wait(`document.getElementById("grads").dataset.passes === "1"`)
	ids := strings.Split(l.js(`[...document.querySelectorAll("#grads-rows [data-values]")].map(e => e.id).join(",")`), ",")
	ref := reference(t, app.DefaultDoc(), app.Modes{})
	if len(ids) != len(ref.Recording().ParamNodes) {
		t.Fatalf(".grad rows %v, want one per parameter (%d)", ids, len(ref.Recording().ParamNodes))
	}
	once := map[string][]float64{}
	for _, id := range ids {
		once[id] = l.values(id)
	}
	l.click("zero-grad")
	l.click("backward-again")
	l.wait(`document.getElementById("grads").dataset.passes === "2"`)
	for _, id := range ids {
		got := l.values(id)
		for k, v := range got {
			if v != 2*once[id][k] {
				t.Errorf("%s[%d] = %v after two passes, want exactly 2 × %v", id, k, v, once[id][k])
			}
		}
	}
	if l.js(`document.getElementById("grads-card").hidden`) != "false" || l.js(`document.getElementById("grads-card").dataset.doubled`) != "true" ||
		!strings.Contains(text(t, l.tab, "#grads-card"), "so it doubled") {
		t.Errorf("the card says %q", text(t, l.tab, "#grads-card"))
	}
	// A row shows its parameter's card when clicked.
	for _, id := range []string{ids[1], ids[0]} {
		l.click(id)
		if got, want := l.js(`document.getElementById("grads-card").dataset.node`), strings.TrimPrefix(id, "grad-"); got != want {
			t.Errorf("clicking %s shows the card of node %s, want %s", id, got, want)
		}
	}
	st, err := link.Decode(settledLinkHash(t, l.tab))
	if err != nil || !st.Accumulate {
		t.Errorf("the link does not carry the switch: %+v %v", st, err)
	}
	l.shot("hygiene", 1280, 720)
	l.click("zero-grad")
	l.click("backward-again")
	l.wait(`document.getElementById("grads").dataset.passes === "1"`)
	for _, id := range ids {
		if got := l.values(id); fmt.Sprint(got) != fmt.Sprint(once[id]) {
			t.Errorf("%s = %v after zeroing, want one pass's %v", id, got, once[id])
		}
	}
}

// TestBuiltinLessons opens each built-in lesson from the Lessons menu and
// walks every stop: each opens without a message, shows its caption, and
// stands where its state says.
func TestBuiltinLessons(t *testing.T) {
	builtins, err := lesson.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, playgroundHandler(t))
	l := newLessonTab(t, srv.URL+"/")
	for _, b := range builtins {
		l.openBuiltin(b.Name)
		n := len(b.Lesson.Stops)
		for i, stop := range b.Lesson.Stops {
			l.waitStop(fmt.Sprintf("%d / %d", i+1, n))
			if msg := l.js(`document.getElementById("lesson-msg").hidden ? "" : document.getElementById("lesson-msg").textContent`); msg != "" {
				t.Errorf("%s stop %d: %s", b.Name, i+1, msg)
			}
			if got := l.js(`document.getElementById("lesson-caption-view").textContent`); stop.Caption != "" && got == "" {
				t.Errorf("%s stop %d shows no caption", b.Name, i+1)
			}
			if q := stop.Question; q != nil && l.js(`document.getElementById("lesson-question").hidden`) != "false" {
				t.Errorf("%s stop %d hides its question", b.Name, i+1)
			}
			// The share box follows the page once its link caught up.
			l.wait(linkSyncedJS)
			st, err := link.Decode(l.js(`(h => h.slice(h.indexOf("#")))(document.getElementById("share-url").value)`))
			if err != nil {
				t.Errorf("%s stop %d: the share box's link: %v", b.Name, i+1, err)
			} else if st.Pos != stop.State.Pos {
				t.Errorf("%s stop %d stands at %+v, want %+v", b.Name, i+1, st.Pos, stop.State.Pos)
			}
			l.press(kb.PageDown)
		}
	}
	if e := pageError(l.tab); !strings.Contains(e, "shows no error") {
		t.Error(e)
	}
}

// TestLessonBrokenStopSaysSoOnce opens a lesson whose second stop stands
// past the end of its tape: the stop's error shows once, under the stop,
// not again above the playground; the first stop, which opens, shows
// neither.
func TestLessonBrokenStopSaysSoOnce(t *testing.T) {
	good, bad := link.Default(), link.Default()
	bad.Pos = link.Position{Phase: link.PhaseForward, Node: 999}
	frag, err := lesson.Fragment(&lesson.Lesson{Title: "A broken stop", Stops: []lesson.Stop{{State: good}, {State: bad}}})
	if err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, playgroundHandler(t))
	l := newLessonTab(t, srv.URL+"/#"+frag)
	l.waitStop("1 / 2")
	const shown = `(id => (e => e.hidden ? "" : e.textContent)(document.getElementById(id)))`
	if m, e := l.js(shown+`("lesson-msg")`), l.js(shown+`("link-error")`); m != "" || e != "" {
		t.Errorf("the first stop opens, yet the page says %q under it and %q above the playground", m, e)
	}
	l.click("lesson-next")
	l.waitStop("2 / 2")
	l.wait(`!document.getElementById("lesson-msg").hidden`)
	if e := l.js(shown + `("link-error")`); e != "" {
		t.Errorf("the broken stop's error shows twice: under the stop (%q) and above the playground (%q)", l.js(shown+`("lesson-msg")`), e)
	}
}
