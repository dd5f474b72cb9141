//go:build unix

package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
	"golang.org/x/sys/unix"

	"github.com/hookctl/hookctl/internal/capture"
	"github.com/hookctl/hookctl/schema"
)

// drainGrace is how long trace goes on reading COMMAND's stdout and stderr
// once it has exited, when something it started in the background still
// holds them open: long enough for what is already in the pipes, short
// enough that the agent is not kept waiting for that process.
const drainGrace = 100 * time.Millisecond

// forwarded are the signals trace passes on to COMMAND. SIGPIPE is caught
// too, so that a closed stdout is an error trace handles, not its death.
// SIGUSR1, SIGUSR2 and SIGALRM are among them because Go's runtime would
// otherwise catch them and do nothing: COMMAND would never learn of one,
// where without trace it would handle it or die of it.
var forwarded = []os.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGALRM}

// RunWrapped runs argv as hookctl trace and hookctl adapt do: directly,
// with no shell, its streams passed through (from in, to out and errOut)
// and kept (up to the limits), and the signals the wrapper receives passed
// on. A command that cannot be started gets the status a shell gives it,
// and one line on errOut.
func RunWrapped(argv []string, in io.Reader, out, errOut io.Writer, lim WrapLimits) *Wrapped {
	w := &Wrapped{Start: time.Now()}
	w.Stdout.Limit = lim.Stdout
	w.Stderr.Limit = lim.Stderr
	w.Stdin.Limit = lim.Stdin
	defer func() { w.Duration = time.Since(w.Start) }()

	path, err := exec.LookPath(argv[0])
	if errors.Is(err, exec.ErrDot) {
		// The PATH names the current folder: a shell runs what it finds
		// there, and so does trace.
		err = nil
	}
	if err != nil {
		w.Exit, w.StartErr = startFailure(argv[0], err)
		fmt.Fprintf(errOut, "hookctl: %s: %s\n", lim.Name, schema.Visible(w.StartErr))
		w.readPayload(in)
		return w
	}

	// Signals are caught before COMMAND starts, so none is lost; they
	// wait in the channel until it runs. One that the agent started trace
	// ignoring (nohup's SIGHUP) is left ignored, so that COMMAND inherits
	// that as it would have.
	sigs := make(chan os.Signal, 8)
	catch := make([]os.Signal, 0, len(forwarded)+1)
	for _, sig := range append(forwarded, syscall.SIGPIPE) {
		if !signal.Ignored(sig) {
			catch = append(catch, sig)
		}
	}
	signal.Notify(sigs, catch...)
	// They stay caught until trace exits: once COMMAND is reaped, forward
	// drops what arrives, while the output drains as while the record is
	// written, and trace exits with COMMAND's status. Stopping them would
	// let one end trace in the last moment before the record (a SIGQUIT
	// with Go's goroutine dump on stderr), and signal.Stop costs 0.1 to
	// 0.3 ms, as it waits for the signal thread to be idle.

	outR, outW, err := os.Pipe()
	if err != nil {
		return w.cannot(errOut, lim.Name, argv[0], err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(outR, outW)
		return w.cannot(errOut, lim.Name, argv[0], err)
	}
	// COMMAND is started with syscall.ForkExec, not os/exec: the latter
	// forks a throwaway child first, once per process, to learn whether
	// the kernel has pidfds, which trace does not use.
	sys := &syscall.SysProcAttr{}
	// Leading a terminal's foreground group (a job typed at a shell),
	// trace gives COMMAND a process group of its own and the terminal, as
	// a shell gives a job: what is typed (Ctrl-C, Ctrl-\) reaches
	// COMMAND's group alone, and trace passes on only what is sent to
	// trace itself, so that nothing arrives twice.
	tty := foregroundTTY()
	if tty != nil {
		defer tty.Close()
		sys.Foreground, sys.Ctty = true, int(tty.Fd())
	}
	var stdin, inR, inW *os.File
	if f, ok := in.(*os.File); ok && isTerminal(f) {
		// A person typing: the terminal is COMMAND's own, as without
		// trace, and there is no payload to record.
		stdin = f
	} else {
		var err error
		if inR, inW, err = os.Pipe(); err != nil {
			closeAll(outR, outW, errR, errW)
			return w.cannot(errOut, lim.Name, argv[0], err)
		}
		stdin, w.Teed = inR, true
	}
	env := os.Environ()
	if len(lim.Env) > 0 {
		env = append(env, lim.Env...)
	}
	attr := &syscall.ProcAttr{Env: env, Files: []uintptr{stdin.Fd(), outW.Fd(), errW.Fd()}, Sys: sys}
	pid, err := syscall.ForkExec(path, argv, attr)
	if errors.Is(err, syscall.ENOEXEC) {
		// A script without a #! line: shells and execvp(3) run it with
		// /bin/sh, and so does trace.
		pid, err = syscall.ForkExec("/bin/sh", append([]string{"/bin/sh", path}, argv[1:]...), attr)
	}
	// COMMAND holds its ends of the pipes now; trace keeps only its own.
	closeAll(outW, errW, inR)
	if err != nil {
		if tty != nil {
			// The child that could not exec took the terminal first.
			signal.Ignore(syscall.SIGTTOU)
			unix.IoctlSetPointerInt(int(tty.Fd()), unix.TIOCSPGRP, unix.Getpgrp())
			signal.Reset(syscall.SIGTTOU)
		}
		closeAll(outR, errR, inW)
		w.Exit, w.StartErr = startFailure(argv[0], err)
		fmt.Fprintf(errOut, "hookctl: %s: %s\n", lim.Name, schema.Visible(w.StartErr))
		if w.Teed {
			w.readPayload(in)
		}
		return w
	}
	w.PID = pid
	var jobs *job
	if tty != nil {
		jobs = &job{tty: tty, pgid: w.PID}
		// trace is in the background now: it writes COMMAND's output to
		// the terminal and takes the terminal back without being stopped
		// for it. COMMAND, started already, keeps SIGTTOU's default.
		signal.Ignore(syscall.SIGTTOU)
		defer jobs.takeBack()
	}

	var pumps sync.WaitGroup
	pumps.Go(func() { pump(outR, out, &w.Stdout) })
	pumps.Go(func() { pump(errR, errOut, &w.Stderr) })
	stdinDone := make(chan struct{})
	if w.Teed {
		go pumpStdin(in, inW, &w.Stdin, stdinDone)
	} else {
		close(stdinDone)
	}
	var reaped atomic.Bool
	go forward(sigs, pid, jobs != nil, &reaped)

	status, werr := waitCommand(pid, jobs)
	reaped.Store(true)
	// What COMMAND wrote is in the pipes; a process it left in the
	// background may hold them open, and gets drainGrace to let go.
	deadline := time.Now().Add(drainGrace)
	outR.SetReadDeadline(deadline)
	errR.SetReadDeadline(deadline)
	pumps.Wait()
	closeAll(outR, errR)
	if w.Teed {
		// Nothing more goes to COMMAND. What the agent sends is still
		// read, for the record, until stdin ends or the grace is over: an
		// agent may write the payload after COMMAND has already exited.
		// A whole JSON value already read is the payload: an agent that
		// keeps stdin open after it is not waited for.
		inW.Close()
		select {
		case <-stdinDone:
		default:
			if b, _, _ := kept(&w.Stdin); !json.Valid(b) {
				select {
				case <-stdinDone:
				case <-time.After(time.Until(deadline)):
				}
			}
		}
	}

	switch {
	case werr != nil:
		// Wait failed without an exit status; cannot happen after a start.
		w.Exit = 126
	case status.Signaled():
		w.Signal = status.Signal()
	default:
		w.Exit = status.ExitStatus()
	}
	return w
}

// waitCommand waits for COMMAND to end and returns its status. When it is
// a job of its own (jobs not nil) and is stopped (Ctrl-Z), trace stops
// too, as the job the shell sees, having taken the terminal back; when
// the shell continues trace, trace gives COMMAND the terminal again (if
// it is continued in the foreground) and continues it.
func waitCommand(pid int, jobs *job) (syscall.WaitStatus, error) {
	flags := 0
	if jobs != nil {
		flags = syscall.WUNTRACED
	}
	for {
		var ws syscall.WaitStatus
		_, err := syscall.Wait4(pid, &ws, flags, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil || !ws.Stopped() {
			return ws, err
		}
		jobs.takeBack()
		unix.Kill(os.Getpid(), syscall.SIGSTOP)
		// Continued.
		if inForeground() {
			jobs.give()
		}
		unix.Kill(-jobs.pgid, syscall.SIGCONT)
	}
}

// job is COMMAND run as a job of its own in trace's terminal.
type job struct {
	tty  *os.File
	pgid int
}

// give makes COMMAND's group the terminal's foreground.
func (j *job) give() {
	unix.IoctlSetPointerInt(int(j.tty.Fd()), unix.TIOCSPGRP, j.pgid)
}

// takeBack makes trace's group the terminal's foreground again, if
// COMMAND's still is.
func (j *job) takeBack() {
	fd := int(j.tty.Fd())
	if pg, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP); err == nil && pg == j.pgid {
		unix.IoctlSetPointerInt(fd, unix.TIOCSPGRP, unix.Getpgrp())
	}
}

// readPayload reads, for the record, the payload the agent sent to a
// command that could not be started: what comes before stdin ends, or
// before drainGrace is over.
func (w *Wrapped) readPayload(in io.Reader) {
	if f, ok := in.(*os.File); ok && isTerminal(f) {
		return
	}
	w.Teed = true
	done := make(chan struct{})
	go pumpStdin(in, nil, &w.Stdin, done)
	select {
	case <-done:
	case <-time.After(drainGrace):
	}
}

// cannot reports a failure of the wrapper itself before COMMAND started.
func (w *Wrapped) cannot(errOut io.Writer, wrapper, name string, err error) *Wrapped {
	w.Exit, w.StartErr = 126, fmt.Sprintf("cannot run %s: %v", name, err)
	fmt.Fprintf(errOut, "hookctl: %s: %s\n", wrapper, schema.Visible(w.StartErr))
	return w
}

// startFailure returns the status a shell gives a command that cannot be
// started, 127 when it is not found and 126 when it cannot be run, and
// the reason.
func startFailure(name string, err error) (int, string) {
	var errno syscall.Errno
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return 127, fmt.Sprintf("%s: command not found", name)
	case errors.Is(err, fs.ErrNotExist):
		if _, serr := os.Stat(name); serr == nil {
			return 127, fmt.Sprintf("cannot run %s: its interpreter was not found (check its #! line)", name)
		}
		return 127, fmt.Sprintf("%s: no such file", name)
	case errors.Is(err, syscall.EISDIR):
		return 126, fmt.Sprintf("%s: is a folder", name)
	case errors.Is(err, fs.ErrPermission):
		return 126, fmt.Sprintf("%s: permission denied (is it executable?)", name)
	case errors.As(err, &errno):
		return 126, fmt.Sprintf("cannot run %s: %v", name, errno)
	}
	return 126, fmt.Sprintf("cannot run %s: %v", name, err)
}

// pump copies COMMAND's output to trace's own, keeping its start. When
// the agent has closed its end, COMMAND is made to find out as it would
// have without trace: its next write fails (EPIPE, SIGPIPE).
func pump(r *os.File, w io.Writer, c *capture.Buffer) {
	buf := make([]byte, 32<<10)
	writing := true
	for {
		n, err := r.Read(buf)
		if n > 0 {
			c.Write(buf[:n])
			if writing {
				if _, werr := w.Write(buf[:n]); werr != nil {
					if errors.Is(werr, syscall.EPIPE) {
						r.Close()
						return
					}
					// Anything else: stop writing, keep reading, so that
					// COMMAND never blocks on a full pipe.
					writing = false
				}
			}
		}
		if err != nil {
			return
		}
	}
}

// pumpStdin copies the agent's stdin to COMMAND's, keeping it for the
// record. It stops writing when COMMAND closes its stdin or exits, and
// stops reading when it can neither write nor keep more.
func pumpStdin(r io.Reader, w *os.File, c *capture.Buffer, done chan<- struct{}) {
	defer close(done)
	buf := make([]byte, 32<<10)
	writing := w != nil
	for {
		n, err := r.Read(buf)
		if n > 0 {
			c.Write(buf[:n])
			if writing {
				if _, werr := w.Write(buf[:n]); werr != nil {
					writing = false
				}
			}
			if !writing && c.Full() {
				return
			}
		}
		if err != nil {
			if w != nil {
				w.Close() // EOF reaches COMMAND
			}
			return
		}
	}
}

// forward passes on the signals trace receives to COMMAND. When COMMAND
// is a job of its own (own), what the terminal sends goes to it and not
// to trace, so everything trace receives was sent to trace and is passed
// on. Otherwise COMMAND shares trace's process group: SIGINT and SIGQUIT
// that the terminal may have sent (trace's group is its foreground, and
// it turns Ctrl-C and Ctrl-\ into signals) reached COMMAND already, and
// are not sent a second time. A terminal in raw mode, as an agent's own
// interface sets it, sends none: every signal then came from kill.
func forward(sigs <-chan os.Signal, pid int, own bool, reaped *atomic.Bool) {
	for sig := range sigs {
		if sig == syscall.SIGPIPE || reaped.Load() {
			// Once COMMAND is reaped its pid may be another process's.
			continue
		}
		if !own && (sig == syscall.SIGINT || sig == syscall.SIGQUIT) && terminalMaySend() {
			continue
		}
		unix.Kill(pid, sig.(syscall.Signal))
	}
}

// foregroundTTY returns trace's controlling terminal when trace leads the
// terminal's foreground process group, as a shell makes the first process
// of a job typed at it: then COMMAND is made a job of its own. It returns
// nil otherwise: no terminal, trace in the background (under hookctl run),
// or in a group it does not lead (a pipeline, or an agent that runs its
// handlers in its own foreground group, whose terminal trace must never
// take).
func foregroundTTY() *os.File {
	if unix.Getpgrp() != os.Getpid() {
		return nil
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	pgrp, err := unix.IoctlGetInt(int(tty.Fd()), unix.TIOCGPGRP)
	if err != nil || pgrp != unix.Getpgrp() {
		tty.Close()
		return nil
	}
	return tty
}

// inForeground reports whether trace's process group is the foreground
// group of its controlling terminal.
func inForeground() bool {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer tty.Close()
	pgrp, err := unix.IoctlGetInt(int(tty.Fd()), unix.TIOCGPGRP)
	return err == nil && pgrp == unix.Getpgrp()
}

// terminalMaySend reports whether the terminal may have sent trace's
// group a SIGINT or SIGQUIT: the group is its foreground, and it turns
// the interrupt and quit characters into signals (ISIG).
func terminalMaySend() bool {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer tty.Close()
	fd := int(tty.Fd())
	pgrp, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP)
	if err != nil || pgrp != unix.Getpgrp() {
		return false
	}
	t, err := unix.IoctlGetTermios(fd, getTermios)
	return err != nil || t.Lflag&unix.ISIG != 0
}

// Reraise ends trace with the signal that killed COMMAND, so that the
// agent sees the same death: the signal's default action restored, then
// the signal sent to trace itself. If it does not kill trace (it cannot be
// made default here), trace returns and exits with 128 + the signal.
func Reraise(sig syscall.Signal) {
	signal.Reset(sig)
	if sig != syscall.SIGKILL && defaultAction(sig) != nil {
		return
	}
	unix.Kill(os.Getpid(), sig)
	// The signal is delivered at once; this is only for a blocked one.
	time.Sleep(50 * time.Millisecond)
}

// isTerminal reports whether f is a terminal: a person typing, not an
// agent's payload.
func isTerminal(f *os.File) bool {
	return isatty.IsTerminal(f.Fd())
}
