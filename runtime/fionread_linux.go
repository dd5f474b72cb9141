package runtime

import "syscall"

// fionread asks how many bytes a pipe holds.
const fionread = syscall.TIOCINQ
