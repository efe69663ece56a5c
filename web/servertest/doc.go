// Package servertest runs the real `tapelab serve` binary for tests: it
// builds it, starts it on a free loopback port with a data folder, waits
// until it answers, and stops it gracefully or kills it with SIGKILL. It
// also holds the load generator (Load) the load test and benchmark use.
// Running processes needs a unix system; Load runs anywhere.
package servertest
