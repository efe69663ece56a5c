// Command linedemo does what Go's runtime still needs its function table
// for once StripLineTables has cut the line tables and StripFuncNames the
// names: it grows and copies stacks, collects garbage while pointers live
// only on the stack, runs goroutines, recovers panics (through a method
// wrapper too, and not where recover is called too deep), calls value
// methods through nil pointers (runtime.panicwrap reads the wrapper's
// name), misuses reflect (whose panic names the method from the stack)
// and prints its own stack, from its own code and from a function that a
// function of the standard library calls. The test that runs it before
// and after the cuts compares what it prints.
package main

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// node is a list cell the collector must keep while only the stack holds it.
type node struct {
	next *node
	val  [4]int
}

// depth recurses n deep with a frame that holds a pointer, so that the
// stack is grown and copied many times and every copy must move it.
func depth(n int, p *node) int {
	var pad [64]int
	pad[n%64] = n
	if n == 0 {
		runtime.GC()
		return p.val[0]
	}
	return depth(n-1, p) + pad[n%64]%3
}

// build returns a list of n cells whose values say where they are.
func build(n int) *node {
	var head *node
	for i := range n {
		head = &node{next: head, val: [4]int{i, 2 * i, 3 * i, 4 * i}}
	}
	return head
}

// check returns how many cells of the list hold other values than build
// gave them.
func check(head *node, n int) int {
	bad := 0
	for i := n - 1; i >= 0; i-- {
		if head == nil || head.val != [4]int{i, 2 * i, 3 * i, 4 * i} {
			bad++
			if head == nil {
				return bad + i
			}
		}
		head = head.next
	}
	return bad
}

// churn collects garbage in a loop while two lists live only in its
// frame, and fills the freed memory with other values.
func churn() int {
	a := build(2000)
	var junk [][]int
	b := build(3000)
	for i := range 20 {
		junk = append(junk[:0], make([]int, 50000))
		for j := range junk[0] {
			junk[0][j] = -i
		}
		_ = build(1000)
		runtime.GC()
	}
	return check(a, 2000) + check(b, 3000)
}

// pipeline sums squares through goroutines joined by channels.
func pipeline() int {
	in, out := make(chan int), make(chan int)
	for range 4 {
		go func() {
			for v := range in {
				out <- v * v
			}
		}()
	}
	go func() {
		for i := range 1000 {
			in <- i
		}
		close(in)
	}()
	sum := 0
	for range 1000 {
		sum += <-out
	}
	return sum
}

// catch runs f and returns what it panicked with, or "no panic".
func catch(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return "no panic"
}

// rescuer recovers through an interface, so that the runtime calls
// inner's method through a wrapper it generated.
type rescuer interface{ rescue(*string) }

type inner struct{}

func (*inner) rescue(msg *string) {
	if r := recover(); r != nil {
		*msg = "wrapper recovered " + fmt.Sprint(r)
	}
}

type outer struct{ *inner }

func viaWrapper() (msg string) {
	var r rescuer = outer{&inner{}}
	defer r.rescue(&msg)
	panic("through a wrapper")
}

// tooDeep calls recover from a function the deferred one calls, where
// recover returns nil: the panic goes on to catch.
func tooDeep(p *string) {
	if r := recover(); r != nil {
		*p = "recovered too deep"
	}
}

func deferred(p *string) { tooDeep(p) }

func notDirect() {
	var s string
	defer deferred(&s)
	panic("not recovered by a nested call")
}

// valued has a value method, which an interface holding a nil *valued
// calls through a wrapper that the compiler generates.
type valued struct{ n int }

func (v valued) String() string { return fmt.Sprint(v.n) }

// nilMethod calls s's String method, which panics when s holds a nil
// pointer and the method has a value receiver.
func nilMethod(s fmt.Stringer) func() {
	return func() { _ = s.String() }
}

// mapped prints the stack from within the function that strings.Map
// calls, the first time it is called.
//
//go:noinline
func mapped() {
	printed := false
	strings.Map(func(r rune) rune {
		if !printed {
			printed = true
			stack()
		}
		return r
	}, "ab")
}

// stack prints the function names of this goroutine's stack from here,
// each with where debug.Stack says it is (file:line, "?:0" once the line
// tables are cut).
func stack() {
	lines := strings.Split(strings.TrimSpace(string(debug.Stack())), "\n")
	for i := 1; i+1 < len(lines); i += 2 {
		name, where := lines[i], strings.TrimSpace(lines[i+1])
		if j := strings.LastIndex(name, "("); j > 0 {
			name = name[:j]
		}
		if j := strings.Index(where, " +"); j > 0 {
			where = where[:j]
		}
		fmt.Println("frame", name, where)
	}
}

// level2 and level1 are not inlined: a traceback shows an inlined call only
// while the inlining tables are there.
//
//go:noinline
func level2() { stack() }

//go:noinline
func level1() { level2() }

func main() {
	fmt.Println("depth", depth(5000, &node{val: [4]int{7}}))
	fmt.Println("churn bad cells", churn())
	fmt.Println("pipeline", pipeline())
	fmt.Println("panic:", catch(func() { panic(errors.New("boom")) }))
	fmt.Println("nil map:", catch(func() {
		var m map[string]int
		m["x"] = 1
	}))
	fmt.Println("index:", catch(func() {
		s := []int{1, 2, 3}
		i := len(s) + 2
		_ = s[i]
	}))
	fmt.Println(viaWrapper())
	fmt.Println("nested:", catch(notDirect))
	fmt.Println("nil value method:", catch(nilMethod((*valued)(nil))))
	fmt.Println("nil value method:", catch(nilMethod((*time.Duration)(nil))))
	fmt.Println("reflect:", catch(func() { reflect.ValueOf("x").Bool() }))
	level1()
	mapped()
}
