//go:build linux

// Command peakrss runs a command and prints its peak resident size in
// bytes: the kernel's account of the finished child (getrusage's
// ru_maxrss), the largest of the command and the children it waited for
// (lint's ShellCheck). The command's own output is thrown away; its stdin is
// peakrss's.
//
// The account holds, besides the command's own peak, the resident size of
// the process that started it at the moment it ran the program: Go starts
// a child sharing its memory until the exec. That is why the benchmarks
// start hookctl through this small program, whose few megabytes are under
// any command's own peak, rather than from a test binary that holds the
// inputs it wrote.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: peakrss COMMAND [ARG...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin = os.Stdin
	err := cmd.Run()
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, "peakrss:", err)
		os.Exit(1)
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		fmt.Fprintln(os.Stderr, "peakrss: killed by", ws.Signal())
		os.Exit(1)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		fmt.Fprintln(os.Stderr, "peakrss: no resource usage")
		os.Exit(1)
	}
	fmt.Println(ru.Maxrss * 1024) // kilobytes on Linux
}
