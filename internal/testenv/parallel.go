package testenv

import (
	"flag"
	"strconv"
)

// Waiting lets n tests marked t.Parallel run at once, unless the command
// line gives -parallel. It is for the packages whose tests mostly wait, on
// handlers' timeouts and sleeps and on child processes: the default, the
// number of CPUs, would make them wait two by two on a small machine while
// the CPUs idle. Call it in TestMain, before m.Run.
func Waiting(n int) {
	if !flag.Parsed() {
		flag.Parse()
	}
	given := false
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "test.parallel" {
			given = true
		}
	})
	if !given {
		flag.Set("test.parallel", strconv.Itoa(n))
	}
}
