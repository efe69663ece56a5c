// Command tapelab runs TapeLab's tools from the repository root.
//
//	go run .                  serve the playground on 127.0.0.1:8080
//	go run . serve -addr A    serve it on address A
//	go run . build            compile the wasm into static/
//	go run . help             list the commands
//
// Each tool is one entry of the command table in commands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// command is one subcommand: `go run . <name> [flags]`.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// defaultCommand runs when no command is named (`go run .` or `go run . -addr X`).
const defaultCommand = "serve"

// commands lists every subcommand; a new tool is one more entry here.
func commands() []command {
	return []command{
		{"serve", "build the wasm if it is missing or stale, then serve the playground", runServe},
		{"build", "compile wasm/ into static/tapelab.wasm and copy wasm_exec.js", runBuild},
		{"grad", "one forward and backward pass of a model on a data file, as JSON", runGrad},
		{"train", "train a model and print its losses and final parameters, as JSON lines", runTrain},
		{"ir", "print a model as tapelab.ir.v1 JSON", runIR},
		{"export", "print a model as runnable PyTorch code", runExport},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tapelab:", err)
		os.Exit(1)
	}
}

// run dispatches args to the command they name, or to the default command
// when the first argument is a flag or there is none.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	name := defaultCommand
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	if name == "help" {
		usage(stdout)
		return nil
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(ctx, args, stdout, stderr)
		}
	}
	usage(stderr)
	return fmt.Errorf("unknown command %q (see `go run . help`)", name)
}

// usage lists the commands.
func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: go run . [command] [flags]   (no command means serve)")
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "  %-8s %s\n", "help", "list the commands")
	fmt.Fprintln(w, "\n`go run . <command> -h` lists a command's flags.")
}

// newFlagSet returns a flag set for the command name that reports errors
// instead of exiting, and prints its help to stderr.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}
