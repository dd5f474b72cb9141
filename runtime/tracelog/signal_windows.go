//go:build windows

package tracelog

import "syscall"

// signalNames holds the signals Go names on Windows: a record written
// elsewhere names others, which read back as SIG and their number.
var signalNames = [...]struct {
	sig  syscall.Signal
	name string
}{
	{syscall.SIGABRT, "SIGABRT"}, {syscall.SIGALRM, "SIGALRM"}, {syscall.SIGBUS, "SIGBUS"},
	{syscall.SIGFPE, "SIGFPE"}, {syscall.SIGHUP, "SIGHUP"}, {syscall.SIGILL, "SIGILL"},
	{syscall.SIGINT, "SIGINT"}, {syscall.SIGKILL, "SIGKILL"}, {syscall.SIGPIPE, "SIGPIPE"},
	{syscall.SIGQUIT, "SIGQUIT"}, {syscall.SIGSEGV, "SIGSEGV"}, {syscall.SIGTERM, "SIGTERM"},
	{syscall.SIGTRAP, "SIGTRAP"},
}
