// Command wasmsize prints the raw, gzip (level 9) and brotli (quality 11)
// sizes of the files it is given: what a browser downloads.
package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"

	"github.com/andybalholm/brotli"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: wasmsize FILE...")
		os.Exit(2)
	}
	for _, name := range os.Args[1:] {
		data, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, "wasmsize:", err)
			os.Exit(1)
		}
		var gz, br bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		zw.Write(data)
		zw.Close()
		bw := brotli.NewWriterLevel(&br, brotli.BestCompression)
		bw.Write(data)
		bw.Close()
		fmt.Printf("SIZE %s raw=%d gzip=%d brotli=%d\n", name, len(data), gz.Len(), br.Len())
	}
}
