package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
)

// MaxShareBytes is the largest document (a model's, a program's or a
// lesson's) POST /api/share accepts; larger bodies get 413 without being
// read whole.
const MaxShareBytes = 256 << 10

// shareAPI serves the share routes:
//
//	POST /api/share        store a model, program or lesson document (see canonicalDocument): 201 {"id": ..., "url": "/s/<id>"}
//	GET  /api/share/{id}   the stored document (application/json)
//	GET  /s/{id}           the playground page, which opens the shared model
//	GET  /embed/{id}       the same page in embed mode (may be framed anywhere)
//
// A share page whose id names no stored model is still the playground's
// page, with status 404: the page asks the API for the model, gets 404
// and opens its default model with a message, so a removed or mistyped
// link never shows a bare error. Every other error, and every error of the
// API, is JSON of the one shape {"error": "..."}.
type shareAPI struct {
	store Store
	// canonical validates a posted document and returns its canonical
	// encoding, which is what is stored and what the id derives from. Its
	// errors are shown to the client as they are.
	canonical func(body []byte) ([]byte, error)
	// page serves the playground's page for /s/{id} and /embed/{id}.
	page PageFunc
}

// PageFunc answers a request with the playground's page (index.html) and
// the HTTP status given: 200 on a stored share's page, 404 when the link
// names no stored share, 500 when the store could not be read.
type PageFunc func(w http.ResponseWriter, r *http.Request, status int)

// register adds the share routes to mux, including the answers for wrong
// methods (405 with Allow) and for unknown /api/ paths (404), so that
// everything under /api/ answers in JSON.
func (a *shareAPI) register(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/share", a.create)
	mux.HandleFunc("/api/share", methodNotAllowed("POST"))
	mux.HandleFunc("GET /api/share/{id}", a.get)
	mux.HandleFunc("/api/share/{id}", methodNotAllowed("GET, HEAD"))
	mux.HandleFunc("GET /s/{id}", a.openPage)
	mux.HandleFunc("/s/{id}", methodNotAllowed("GET, HEAD"))
	mux.HandleFunc("GET /embed/{id}", a.openPage)
	mux.HandleFunc("/embed/{id}", methodNotAllowed("GET, HEAD"))
	// Whatever else is under /s/ and /embed/ ("/s/", "/s/a/b") is a link
	// to no share.
	noShare := func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			methodNotAllowed("GET, HEAD")(w, r)
			return
		}
		a.page(w, r, http.StatusNotFound)
	}
	mux.HandleFunc("/s/", noShare)
	mux.HandleFunc("/embed/", noShare)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such API route; the share API is POST /api/share and GET /api/share/{id}")
	})
}

// shareCreated is the body of a 201 answer to POST /api/share.
type shareCreated struct {
	ID  string `json:"id"`
	URL string `json:"url"`
}

func (a *shareAPI) create(w http.ResponseWriter, r *http.Request) {
	// The kind of document is unknown until the body is read and decoded,
	// which a body over the limit never is.
	tooLarge := fmt.Sprintf("the document is larger than the limit of %d KiB", MaxShareBytes>>10)
	if r.ContentLength > MaxShareBytes {
		writeError(w, http.StatusRequestEntityTooLarge, tooLarge)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxShareBytes))
	if err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			writeError(w, http.StatusRequestEntityTooLarge, tooLarge)
			return
		}
		writeError(w, http.StatusBadRequest, "reading the request body: "+err.Error())
		return
	}
	canonical, err := a.canonical(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	id := ShareID(canonical)
	if err := a.store.Put(r.Context(), id, canonical); err != nil {
		log.Printf("web: POST /api/share: %v", err)
		writeError(w, http.StatusInternalServerError, "the share could not be stored; try again later")
		return
	}
	w.Header().Set("Location", "/api/share/"+id)
	writeJSON(w, http.StatusCreated, shareCreated{ID: id, URL: "/s/" + id})
}

func (a *shareAPI) get(w http.ResponseWriter, r *http.Request) {
	id, ok := shareIDOf(w, r)
	if !ok {
		return
	}
	doc, ok := a.load(w, r, id)
	if !ok {
		return
	}
	h := w.Header()
	etag := `"` + id + `"`
	h.Set("ETag", etag)
	// An id names one document forever.
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", fmt.Sprint(len(doc)))
	w.WriteHeader(http.StatusOK)
	w.Write(doc)
}

// openPage serves the playground page for a share link, with status 200
// when the share is stored and 404 when the id (well-formed or not) names
// none. The page reads the id from its own URL and fetches
// /api/share/{id}, so nothing from the request is written into the HTML.
func (a *shareAPI) openPage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !ValidShareID(id) {
		a.page(w, r, http.StatusNotFound)
		return
	}
	_, err := a.store.Get(r.Context(), id)
	switch {
	case errors.Is(err, ErrNotFound):
		a.page(w, r, http.StatusNotFound)
	case err != nil:
		log.Printf("web: %s %s: %v", r.Method, r.URL.Path, err)
		a.page(w, r, http.StatusInternalServerError)
	default:
		a.page(w, r, http.StatusOK)
	}
}

// idRule is the 400 answer to a malformed share id.
var idRule = fmt.Sprintf("a share id is %d characters from %q", IDLength, IDAlphabet)

// shareIDOf returns the request's {id} if it is a well-formed share id, and
// otherwise answers 400.
func shareIDOf(w http.ResponseWriter, r *http.Request) (string, bool) {
	id := r.PathValue("id")
	if !ValidShareID(id) {
		writeError(w, http.StatusBadRequest, idRule)
		return "", false
	}
	return id, true
}

// load reads the share id from the store, answering 404 or 500 when it
// cannot.
func (a *shareAPI) load(w http.ResponseWriter, r *http.Request, id string) ([]byte, bool) {
	doc, err := a.store.Get(r.Context(), id)
	if errors.Is(err, ErrNotFound) {
		writeError(w, http.StatusNotFound, "no shared document has the id "+id)
		return nil, false
	}
	if err != nil {
		log.Printf("web: %s %s: %v", r.Method, r.URL.Path, err)
		writeError(w, http.StatusInternalServerError, "the share could not be read; try again later")
		return nil, false
	}
	return doc, true
}

// methodNotAllowed answers 405 naming the allowed methods.
func methodNotAllowed(allow string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		writeError(w, http.StatusMethodNotAllowed, "this route answers only "+allow)
	}
}

// apiError is the one shape of every error the share API returns.
type apiError struct {
	Error string `json:"error"`
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, status, apiError{Error: msg})
}

// writeJSON writes v as the JSON body of a status answer. encoding/json
// escapes <, > and &, so no value can turn into markup.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		// Only the fixed types above are written, and they always marshal.
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	body = append(body, '\n')
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}
