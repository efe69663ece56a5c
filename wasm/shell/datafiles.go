//go:build js && wasm

package shell

import (
	"strconv"

	"tapelab/wasm/dom"

	"errors"
	"strings"

	"tapelab/engine/train"
	"tapelab/wasm/state"
)

// dataFiles fetches the datasets read from data files (train.DataFile):
// each is fetched when first chosen, decompressed by the browser and read
// by engine/train, then kept in the state for the page's life. They are
// not in the wasm.
type dataFiles struct {
	st *state.State
}

// missing reports whether the named dataset is read from a file that is
// not loaded yet.
func (f *dataFiles) missing(name string) bool {
	return train.DataFile(name) != "" && f.st.DataFile(name) == nil
}

// load fetches and reads the named dataset's file (the digits are its only
// one, read by train.ReadDigits), decompressed by the browser; it must be
// called from a goroutine. Errors name the file.
func (f *dataFiles) load(name string) error {
	path := train.DataFile(name)
	if !f.missing(name) {
		return nil
	}
	status, text, err := dom.FetchBody(path, map[string]any{}, true)
	if err == nil && status != 200 {
		err = errors.New("the server answered " + strconv.Itoa(status))
	}
	var d *train.Dataset
	if err == nil {
		d, err = train.ReadDigits(strings.NewReader(text))
	}
	if err != nil {
		return errors.New("cannot load " + path + ": " + err.Error())
	}
	f.st.AddDataFile(name, d)
	return nil
}

// loadThen loads the named dataset's file in the background, then calls
// done with the error or nil (panics in done are reported, not fatal).
func (f *dataFiles) loadThen(name string, report func(string), done func(error)) {
	go func() {
		err := f.load(name)
		dom.Recovered("loading "+name, report, func() { done(err) })
	}()
}
