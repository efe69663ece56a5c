// Command tapelab-dist writes TapeLab's self-contained static site (see
// package site): ./build.sh dist runs it after building the wasm.
//
//	go run ./web/site/cmd/tapelab-dist -static static -out dist
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"

	"tapelab/web"
	"tapelab/web/firstview"
	"tapelab/web/site"
)

func main() {
	static := flag.String("static", "static", "the playground's static `folder` (built)")
	out := flag.String("out", "dist", "the `folder` to write (must be empty or absent)")
	level := flag.Int("brotli", site.BestBrotli, "brotli `quality` of the .br copies (0–11)")
	flag.Parse()
	// The page carries its first view: the default model's tape, drawn
	// before the wasm arrives.
	man, err := site.Write(web.WithFirstView(os.DirFS(*static), firstview.Page), *out, *level)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tapelab-dist:", err)
		os.Exit(1)
	}
	names := make([]string, 0, len(man.Files))
	for n := range man.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Printf("%10d  %s/%s\n", man.Files[n], *out, n)
	}
	fmt.Printf("cache version %s\n", man.Version)
}
