//go:build !unix

package agy

import "os/exec"

// killGroupOnCancel leaves exec's own Cancel, which kills the process
// itself: there are no process groups to kill here.
func killGroupOnCancel(*exec.Cmd) {}
