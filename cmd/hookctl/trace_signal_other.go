//go:build !linux && !darwin

package main

import (
	"errors"
	"syscall"
)

// defaultAction is not available here: a child's death by a signal ends
// trace with the status 128 + the signal's number, as a shell reports it.
func defaultAction(syscall.Signal) error {
	return errors.New("cannot restore a signal's default action on this system")
}
