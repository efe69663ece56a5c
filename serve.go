package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"time"

	"tapelab/internal/cli"
	"tapelab/internal/wasmbuild"
	"tapelab/web"
	"tapelab/web/firstview"
)

// defaultAddr is where `go run .` serves: loopback only.
const defaultAddr = "127.0.0.1:8080"

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := cli.NewFlagSet("serve", stderr)
	addr := flags.String("addr", defaultAddr, "`HOST:PORT` to listen on")
	data := flags.String("data", "data", "`folder` keeping the shared models (created on first use)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if flags.NArg() > 0 {
		return fmt.Errorf("serve takes no arguments, got %q", flags.Args())
	}
	b, err := wasmbuild.New(stdout)
	if err != nil {
		return err
	}
	if err := b.BuildIfStale(ctx); err != nil {
		return err
	}
	store, err := web.OpenFileStore(*data)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("%w (pick another address with -addr HOST:PORT)", err)
	}
	fmt.Fprintf(stdout, "shared models are kept in %s\n", store.Dir())
	return serve(ctx, ln, os.DirFS(b.Static), store, stdout)
}

// serve serves the playground in static, and the share API on store when
// it is not nil, on ln until ctx is done, printing its URL to stdout first.
// It closes ln.
func serve(ctx context.Context, ln net.Listener, static fs.FS, store web.Store, stdout io.Writer) error {
	defer ln.Close()
	h, err := web.NewHandler(web.Options{Static: static, Precompress: true, Store: store, FirstView: firstview.Page})
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "TapeLab is serving %s  (Ctrl-C stops it)\n", serverURL(ln.Addr()))
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// serverURL is the URL a browser on this machine opens for addr: an
// unspecified host (":8080", "0.0.0.0:8080") becomes localhost.
func serverURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String() + "/"
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}
