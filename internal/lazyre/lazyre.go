// Package lazyre compiles regular expressions on first use. Every hookctl
// command starts by initialising every package linked in, so an expression
// compiled at package initialisation costs each start (hookctl run and
// hookctl trace sit on the agent's hot path), whatever the command needs.
package lazyre

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr the first time it is called
// and returns the same expression after. expr must compile: as with
// regexp.MustCompile, a bad one panics, on first use.
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
