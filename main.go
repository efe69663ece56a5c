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

	"tapelab/internal/cli"
	"tapelab/internal/wasmbuild"
)

// defaultCommand runs when no command is named (`go run .` or `go run . -addr X`).
const defaultCommand = "serve"

// commands lists every subcommand: serving and building here, the model
// tools from internal/cli; a new tool is one more entry.
func commands() []cli.Command {
	return append([]cli.Command{
		{Name: "serve", Summary: "build the wasm if it is missing or stale, then serve the playground", Run: runServe},
		{Name: "build", Summary: "compile wasm/ into static/tapelab.wasm and copy wasm_exec.js", Run: runBuild},
	}, cli.Commands()...)
}

// runBuild compiles the playground into static/ (`go run . build`).
func runBuild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if err := cli.NewFlagSet("build", stderr).Parse(args); err != nil {
		return err
	}
	b, err := wasmbuild.New(stdout)
	if err != nil {
		return err
	}
	return b.Build(ctx)
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
		if c.Name == name {
			return c.Run(ctx, args, stdout, stderr)
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
		fmt.Fprintf(w, "  %-8s %s\n", c.Name, c.Summary)
	}
	fmt.Fprintf(w, "  %-8s %s\n", "help", "list the commands")
	fmt.Fprintln(w, "\n`go run . <command> -h` lists a command's flags.")
}
