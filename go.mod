module tapelab

go 1.26

toolchain go1.26.8

require (
	github.com/andybalholm/brotli v1.3.0
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/syumai/workers v0.33.0
	github.com/teivah/broadcast v0.1.0
	gonum.org/v1/gonum v0.17.0
	honnef.co/go/js/dom/v2 v2.0.0-20231112215516-51f43a291193
)

require github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
