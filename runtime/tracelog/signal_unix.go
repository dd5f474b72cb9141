//go:build unix

package tracelog

import "syscall"

// signalNames is an array, not a map, so that nothing is built when the
// program starts: hookctl trace starts before every handler.
var signalNames = [...]struct {
	sig  syscall.Signal
	name string
}{
	{syscall.SIGABRT, "SIGABRT"}, {syscall.SIGALRM, "SIGALRM"}, {syscall.SIGBUS, "SIGBUS"},
	{syscall.SIGFPE, "SIGFPE"}, {syscall.SIGHUP, "SIGHUP"}, {syscall.SIGILL, "SIGILL"},
	{syscall.SIGINT, "SIGINT"}, {syscall.SIGKILL, "SIGKILL"}, {syscall.SIGPIPE, "SIGPIPE"},
	{syscall.SIGQUIT, "SIGQUIT"}, {syscall.SIGSEGV, "SIGSEGV"}, {syscall.SIGSYS, "SIGSYS"},
	{syscall.SIGTERM, "SIGTERM"}, {syscall.SIGTRAP, "SIGTRAP"}, {syscall.SIGUSR1, "SIGUSR1"},
	{syscall.SIGUSR2, "SIGUSR2"}, {syscall.SIGXCPU, "SIGXCPU"}, {syscall.SIGXFSZ, "SIGXFSZ"},
	{syscall.SIGVTALRM, "SIGVTALRM"}, {syscall.SIGPROF, "SIGPROF"},
}
