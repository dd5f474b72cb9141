package runtime

import (
	"context"
	"io"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hookctl/hookctl/internal/capture"
)

// Limits of a handler's output.
const (
	// StdoutCap is the most a handler may print on stdout; beyond it the
	// handler fails.
	StdoutCap = 1 << 20
	// StderrCap is how much of a handler's stderr is kept; the rest is
	// discarded.
	StderrCap = 64 << 10
	// Grace is how long a handler and what it started have between SIGTERM
	// and SIGKILL.
	Grace = 2 * time.Second
)

// drainPoll is how often a reader that has not reached EOF is checked
// once the handler's family is gone.
const drainPoll = 50 * time.Millisecond

// claimed is set by ClaimOrphans.
var claimed atomic.Bool

// ClaimOrphans declares that this process starts no process of its own
// beside the handlers' shells, so that every other child it has was left by
// a handler. From then on, on Linux, whenever a handler ends while no other
// handler runs, every such child is killed with SIGKILL, with every process
// below it, and reaped, until none is left: whatever its process group,
// session or environment, including an orphan that carries nothing of its
// handler (env -i, setsid, a double fork), which a dispatch could not
// otherwise tell from a process of the caller's. hookctl run claims its
// orphans; a program that starts processes of its own must not, as they
// would be killed at the end of its next dispatch. Elsewhere than Linux it
// does nothing: orphans never come back to the dispatching process there.
func ClaimOrphans() { claimed.Store(true) }

// procSpec is one process to run.
type procSpec struct {
	command string
	dir     string
	env     []string
	stdin   []byte
	timeout time.Duration
	grace   time.Duration
}

// stopCause says why a process group was stopped before it finished.
type stopCause uint8

const (
	notStopped stopCause = iota
	stoppedTimeout
	stoppedFlood
	stoppedCancel
)

// procResult is what running a process produced.
type procResult struct {
	stdout      []byte
	stderr      []byte
	stderrTrunc bool
	state       *os.ProcessState
	startErr    error
	stopped     stopCause
	elapsed     time.Duration
}

// runProc runs spec as /bin/sh -c COMMAND in its own process group and
// returns when the shell has exited and its family (see family) is gone.
//
// The pipes are the process's own os.Pipe files rather than exec's copying
// goroutines, so Wait returns as soon as the shell exits, whatever a
// grandchild still holds open; the group is then killed, which closes the
// pipes. exec.Cmd.Cancel and WaitDelay would signal the shell alone and
// leave the SIGTERM-to-SIGKILL sequence of the rest of the group to us
// anyway, so the sequence is written out here once, for the whole group.
func runProc(ctx context.Context, spec procSpec) procResult {
	start := time.Now()
	var res procResult
	inR, inW, err := os.Pipe()
	if err != nil {
		res.startErr = err
		return res
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		res.startErr = err
		return res
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		res.startErr = err
		return res
	}

	cmd := exec.Command("/bin/sh", "-c", spec.command)
	cmd.Dir = spec.dir
	cmd.Env = spec.env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	ownGroup(cmd)
	fam, err := startFamily(cmd)
	// The child has its copies; the parent's would keep the pipes open.
	closeAll(inR, outW, errW)
	if err != nil {
		closeAll(inW, outR, errR)
		res.startErr = err
		res.elapsed = time.Since(start)
		return res
	}

	go func() {
		// A handler may never read its stdin, or exit halfway: the write
		// then fails with EPIPE (or is cut short when the pipe is closed
		// below), which is no concern of the handler's outcome.
		_, _ = inW.Write(spec.stdin)
		_ = inW.Close()
	}()

	flood := make(chan struct{})
	outDone := make(chan []byte, 1)
	errDone := make(chan *capture.Buffer, 1)
	go func() { outDone <- readStdout(outR, StdoutCap, flood) }()
	go func() {
		// Past the cap stderr is read and dropped: the handler never
		// blocks on it.
		c := capture.New(StderrCap)
		_, _ = io.Copy(c, errR)
		errDone <- c
	}()

	exited := make(chan *os.ProcessState, 1)
	go func() {
		_ = cmd.Wait() // the state says how it ended
		exited <- cmd.ProcessState
	}()

	timer := time.NewTimer(spec.timeout)
	defer timer.Stop()
	select {
	case res.state = <-exited:
	case <-timer.C:
		res.stopped = stoppedTimeout
	case <-flood:
		res.stopped = stoppedFlood
	case <-ctx.Done():
		res.stopped = stoppedCancel
	}
	if res.stopped != notStopped {
		res.state = terminate(fam, exited, spec.grace)
	}
	// Whatever the handler left running (a background job, an orphan that
	// holds nothing open, a process that left its group) goes with it.
	fam.finish()

	res.stdout = drain(outR, outDone)
	stderr, cut := drain(errR, errDone).Snapshot()
	res.stderr, res.stderrTrunc = stderr, cut > 0
	closeAll(inW, outR, errR)
	res.elapsed = time.Since(start)
	return res
}

// drain returns what the reader of f produced. Once the handler's family
// is gone, only a process out of its reach can hold the pipe open (on
// Linux, one that left the group and its environment before its parent
// died, while another handler runs or in a program that did not claim its
// orphans; elsewhere, any that left the group): when the pipe holds
// nothing left to read, the reader is cut off rather than waited for. Data
// still in the pipe is always read, however long the reader takes to be
// scheduled.
func drain[T any](f *os.File, done <-chan T) T {
	tick := time.NewTicker(drainPoll)
	defer tick.Stop()
	for {
		select {
		case v := <-done:
			return v
		case <-tick.C:
			if pending(f) == 0 {
				_ = f.Close() // unblocks the reader, which returns what it has
				return <-done
			}
		}
	}
}

// terminate stops a handler's family: SIGTERM to all of it, then SIGKILL
// once the grace period is over if any member is still there. It returns
// the shell's exit state.
func terminate(fam *family, exited <-chan *os.ProcessState, grace time.Duration) *os.ProcessState {
	fam.signal(syscall.SIGTERM)
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	var state *os.ProcessState
	select {
	case state = <-exited:
		fam.shellReaped()
	case <-deadline.C:
		fam.signal(syscall.SIGKILL)
		state = <-exited
		fam.shellReaped()
		return state
	}
	// The shell is gone; the rest of its family gets the same grace.
	tick := 5 * time.Millisecond
	for fam.alive() {
		select {
		case <-deadline.C:
			return state
		case <-time.After(tick):
			tick = min(tick*2, 50*time.Millisecond)
		}
	}
	return state
}

// readStdout reads r up to limit bytes; past the limit it closes over, so
// the handler is stopped, and discards the rest, so memory stays bounded
// however much the handler prints.
func readStdout(r io.Reader, limit int, over chan<- struct{}) []byte {
	buf := make([]byte, 0, 4096)
	chunk := make([]byte, 32<<10)
	overflowed := false
	for {
		n, err := r.Read(chunk)
		if n > 0 && !overflowed {
			if len(buf)+n > limit {
				overflowed = true
				close(over)
				buf = append(buf, chunk[:limit+1-len(buf)]...)
			} else {
				buf = append(buf, chunk[:n]...)
			}
		}
		if err != nil {
			return buf
		}
	}
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}

// exitCode returns the shell's exit status, or -1 when a signal ended it.
func exitCode(state *os.ProcessState) int {
	if state == nil {
		return -1
	}
	return state.ExitCode()
}

// signalOf returns the signal that ended the process, if one did.
func signalOf(state *os.ProcessState) (syscall.Signal, bool) {
	if state == nil {
		return 0, false
	}
	ws, ok := state.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return 0, false
	}
	return ws.Signal(), true
}
