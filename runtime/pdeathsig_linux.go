package runtime

import "syscall"

// orphanSignal asks Linux to SIGKILL the handler's shell if hookctl itself
// dies (an agent that kills run with SIGKILL), rather than leave it running
// with no one to stop it at its timeout. Linux sends it when the thread
// that started the child ends; Go keeps its threads for the life of the
// process unless a goroutine locked to one exits, which run never does.
func orphanSignal(attr *syscall.SysProcAttr) {
	attr.Pdeathsig = syscall.SIGKILL
}
