package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func TestServe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	static := fstest.MapFS{"index.html": {Data: []byte("<h1>TapeLab</h1>"), ModTime: time.Now()}}
	ctx, cancel := context.WithCancel(context.Background())
	var stdout bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- serve(ctx, ln, static, nil, &stdout) }()

	url := "http://" + ln.Addr().String() + "/"
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "<h1>TapeLab</h1>" || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("GET /: %d %q Cache-Control=%q", resp.StatusCode, body, resp.Header.Get("Cache-Control"))
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve returned %v after its context ended, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop after its context ended")
	}
	if !strings.Contains(stdout.String(), "TapeLab is serving "+url) {
		t.Errorf("serve printed %q, want the URL %s", stdout.String(), url)
	}
}

func TestServerURL(t *testing.T) {
	tests := []struct{ addr, want string }{
		{"127.0.0.1:8080", "http://127.0.0.1:8080/"},
		{"0.0.0.0:9000", "http://localhost:9000/"},
		{"[::]:9000", "http://localhost:9000/"},
		{"[::1]:8080", "http://[::1]:8080/"},
	}
	for _, tt := range tests {
		addr, err := net.ResolveTCPAddr("tcp", tt.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := serverURL(addr); got != tt.want {
			t.Errorf("serverURL(%s) = %s, want %s", tt.addr, got, tt.want)
		}
	}
}
