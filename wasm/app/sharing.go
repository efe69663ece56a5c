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
