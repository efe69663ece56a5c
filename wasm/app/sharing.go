package app

import (
	"errors"
	"strconv"
	"strings"

	"tapelab/engine/jsontext"
)

// SharedPage reports whether path is one of the share service's pages,
// /s/{id} or /embed/{id}, and returns the id.
func SharedPage(path string) (id string, embed, ok bool) {
	for _, kind := range []string{"/s/", "/embed/"} {
		i := strings.LastIndex(path, kind)
		if i < 0 {
			continue
		}
		id = path[i+len(kind):]
		if id == "" || len(id) > 64 || strings.Trim(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != "" {
			return "", false, false
		}
		return id, kind == "/embed/", true
	}
	return "", false, false
}

// CreatedShare reads the share service's answer to POST /api/share
// (status 201, {"id": ..., "url": "/s/<id>"}) and returns the url. err is
// the request's own error, if any; every failure is said as the end of the
// sentence "Short links need TapeLab's share service, and …".
func CreatedShare(status int, body string, err error) (string, error) {
	if err != nil {
		return "", err
	}
	if status != 201 {
		return "", errors.New("the server answered " + strconv.Itoa(status))
	}
	doc, err := jsontext.Parse([]byte(body), jsontext.Options{})
	if err != nil {
		return "", err
	}
	if u := doc.Field("url"); u != nil && u.Kind == jsontext.String && u.Text != "" {
		return u.Text, nil
	}
	return "", errors.New("no share service answered")
}

// FetchedShare reads the status the share service answered to GET
// /api/share/{id} and returns nil for 200, else why the page cannot open
// the share, in words a person can act on: 404 (an id the store does not
// know) and 400 (a string that is not a share id at all, such as a
// mistyped or cut-off link) both mean that no shared model has the id.
func FetchedShare(id string, status int) error {
	switch status {
	case 200:
		return nil
	case 404:
		return errors.New("no shared model has the id " + id + " (a mistyped link, or one shared on another server?)")
	case 400:
		return errors.New("no shared model has the id " + id + ": it is not a share id, which is 16 characters, letters a–z and digits 2–7")
	}
	return errors.New("the share service could not read the share " + id + " (it answered " + strconv.Itoa(status) + "); try again later")
}

// ShareLinks are the links a stored share gives: the short link, the
// embed link (the page in embed mode, which other sites may frame) and
// the HTML snippet that frames it.
type ShareLinks struct {
	Short, Embed, IFrame string
}

// LinksFor returns the links for the share the service stored at url
// ("/s/<id>", as CreatedShare returns it) on origin, each followed by
// #frag when frag is not empty (the state the stored document does not
// hold: the position, the modes, the flags).
func LinksFor(origin, url, frag string) (ShareLinks, error) {
	id, ok := strings.CutPrefix(url, "/s/")
	if !ok || id == "" || strings.ContainsAny(id, `/#?"<>& `) {
		return ShareLinks{}, errors.New("the share service answered the link " + strconv.Quote(url) + ", not /s/<id>")
	}
	hash := ""
	if frag != "" {
		hash = "#" + frag
	}
	embed := origin + "/embed/" + id + hash
	return ShareLinks{
		Short:  origin + url + hash,
		Embed:  embed,
		IFrame: `<iframe src="` + embed + `" width="960" height="540" title="TapeLab" loading="lazy"></iframe>`,
	}, nil
}
