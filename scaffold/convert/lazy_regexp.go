package convert

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles a regular expression the first time it is used, so
// that starting hookctl (on the agent's hot path, for hookctl run) does not
// pay for the expressions of commands it is not running.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
