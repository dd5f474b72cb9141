// Command minwrap is the least a wrapper like hookctl trace can do, for
// measuring the floor of trace's overhead on a machine: catch the signals
// it would forward, run COMMAND with its stdout through a pipe, copy that
// through, wait for it, append one line to a log, exit with its status.
// It is not part of hookctl (testdata is not built); build it with
//
//	cd runtime/tracelog/testdata/minwrap && CGO_ENABLED=0 go build -o /tmp/minwrap .
package main

import (
	"io"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		os.Exit(2)
	}
	start := time.Now()
	signal.Notify(make(chan os.Signal, 1), syscall.SIGTERM, syscall.SIGINT)
	r, w, err := os.Pipe()
	if err != nil {
		os.Exit(1)
	}
	pid, err := syscall.ForkExec(os.Args[1], os.Args[1:], &syscall.ProcAttr{Files: []uintptr{0, w.Fd(), 2}, Env: os.Environ()})
	if err != nil {
		os.Exit(127)
	}
	w.Close()
	io.Copy(os.Stdout, r)
	var ws syscall.WaitStatus
	syscall.Wait4(pid, &ws, 0, nil)
	if f, err := os.OpenFile(os.TempDir()+"/minwrap.jsonl", os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600); err == nil {
		f.Write([]byte(`{"time":"` + start.UTC().Format(time.RFC3339) + `","exit":` + strconv.Itoa(ws.ExitStatus()) + "}\n"))
		f.Close()
	}
	os.Exit(ws.ExitStatus())
}
