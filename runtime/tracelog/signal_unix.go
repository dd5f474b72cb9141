//go:build unix

package tracelog

import "syscall"

var systemSignalNames = [...]namedSignal{
	{syscall.SIGSYS, "SIGSYS"}, {syscall.SIGUSR1, "SIGUSR1"}, {syscall.SIGUSR2, "SIGUSR2"},
	{syscall.SIGXCPU, "SIGXCPU"}, {syscall.SIGXFSZ, "SIGXFSZ"}, {syscall.SIGVTALRM, "SIGVTALRM"},
	{syscall.SIGPROF, "SIGPROF"},
}
