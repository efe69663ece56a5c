//go:build js && wasm

// Package ui holds the page's widgets that keep no state of their own: the
// colour legend, the canvas palette, number formats for drawing, and the
// cards, grids, charts, plots and strips the screens draw with. A widget
// is made from a dom.Document and what it shows; the screen that made it
// keeps it and tells it what to show next.
package ui
