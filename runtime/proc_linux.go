package runtime

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// On Linux a handler's family is every process that descends from its
// shell, whatever process group or session it moved to: coreutils timeout
// makes a group of its own, setsid a session. The dispatching process is a
// child subreaper (PR_SET_CHILD_SUBREAPER), so a process whose parent dies
// comes back to it instead of to PID 1: it can still be found, killed, and
// reaped, even where PID 1 reaps nothing (a container without an init).
//
// A family is found through /proc: the children of the shell and of every
// member, the processes seen before (a pid with the same start time, so a
// pid reused by another process is not taken for one), and this process's
// own children that are not a handler's shell, when they are this handler's
// orphans: in its process group, seen before, or holding its HOOKCTL_
// variables in their environment. A child this process started for another
// purpose matches none of these and is never signalled nor reaped; a shell
// is reaped by os/exec alone.
//
// An orphan that matches none of these either (env -i, setsid, a double
// fork) cannot be told from the caller's own children by a library. A
// process that has none (hookctl run) says so with ClaimOrphans: once no
// handler runs, every child it has that no handler's shell is, is a
// handler's leftover, and sweep kills and reaps it with what is below it.

// becomeSubreaper makes this process a child subreaper, once.
func becomeSubreaper() error {
	subreaper.once.Do(func() {
		subreaper.err = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	})
	return subreaper.err
}

var subreaper struct {
	once sync.Once
	err  error
}

// live holds the shells this process started and has not reaped yet, and
// the families whose handler has not finished: startFamily and the search
// for orphans hold its lock, so that a shell is never taken for an orphan.
var live = struct {
	sync.Mutex
	shells   map[int]bool
	families map[*family]bool
}{shells: map[int]bool{}, families: map[*family]bool{}}

// family is a handler's shell and its descendants.
type family struct {
	pgid int // the shell's pid, which leads the group
	// marker is the HOOKCTL_ part of the handler's environment, which its
	// descendants inherit.
	marker []string
	// seen maps every descendant found so far to its start time.
	seen   map[int]uint64
	reaped bool // os/exec has reaped the shell
	// unsure is set by members when a child of this process could not be
	// told apart yet: its environment read empty while it was running,
	// which is what the kernel answers while the process is inside
	// execve (a descendant that execs at the moment its handler ends).
	unsure bool
}

// startFamily starts the handler's shell.
func startFamily(cmd *exec.Cmd) (*family, error) {
	_ = becomeSubreaper() // without it, orphans go to PID 1 as before
	f := &family{seen: map[int]uint64{}}
	for _, kv := range cmd.Env {
		if strings.HasPrefix(kv, "HOOKCTL_") {
			f.marker = append(f.marker, kv)
		}
	}
	live.Lock()
	defer live.Unlock()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	f.pgid = cmd.Process.Pid
	live.shells[f.pgid] = true
	live.families[f] = true
	return f, nil
}

// shellReaped records that os/exec has reaped the shell.
func (f *family) shellReaped() {
	if f.reaped {
		return
	}
	f.reaped = true
	live.Lock()
	delete(live.shells, f.pgid)
	live.Unlock()
}

// signal sends sig to the group and to every member of the family.
func (f *family) signal(sig syscall.Signal) {
	members := f.members()
	_ = syscall.Kill(-f.pgid, sig)
	for _, p := range members {
		p.signal(sig)
	}
}

// alive reports whether a member of the family is still running, reaping
// the members that are this process's zombies.
func (f *family) alive() bool {
	running := false
	for _, p := range f.members() {
		if !p.gone() {
			running = true
		}
	}
	return running || groupRunning(f.pgid)
}

// finishWait bounds how long finish waits for the members it killed to
// die; what is left is reaped in the background.
const finishWait = 2 * time.Second

// unsureWait bounds how long finish looks again at a child whose
// environment read empty (see family.unsure): an execve takes well under
// a millisecond, and a process that really has no environment is not a
// handler's.
const unsureWait = 250 * time.Millisecond

// finish kills whatever is left of the family once the shell is reaped, and
// reaps what it killed; then, if this process claimed its orphans and no
// other handler runs, every child it has left (see sweep). A handler that
// left nothing behind costs a signal to its empty group and a look at this
// process's children (one waitid call, two when the orphans are claimed).
func (f *family) finish() {
	f.shellReaped()
	if !errors.Is(syscall.Kill(-f.pgid, syscall.SIGKILL), syscall.ESRCH) || len(f.seen) > 0 || strangers() {
		f.kill()
	}
	if f.leave() {
		sweep()
	}
}

// kill kills the family's members and the rest of its group until none
// runs, reaping those that are this process's.
func (f *family) kill() {
	now := time.Now()
	deadline, unsureUntil := now.Add(finishWait), now.Add(unsureWait)
	pause := time.Millisecond
	for {
		var running []proc
		for _, p := range f.members() {
			if !p.gone() {
				running = append(running, p)
			}
		}
		// A child whose environment is not known yet need not be looked at
		// again when the sweep that follows kills it anyway.
		looking := f.unsure && time.Now().Before(unsureUntil) && !f.alone()
		if len(running) == 0 && !looking && !groupRunning(f.pgid) {
			return
		}
		if time.Now().After(deadline) {
			for _, p := range running {
				if p.ppid == os.Getpid() {
					go p.reapBlocking()
				}
			}
			return
		}
		_ = syscall.Kill(-f.pgid, syscall.SIGKILL)
		for _, p := range running {
			p.signal(syscall.SIGKILL)
		}
		time.Sleep(pause)
		pause = min(pause*2, 20*time.Millisecond)
	}
}

// alone reports whether the orphans are claimed and no other handler
// runs: what this process's children are that no handler's shell is are
// then this handler's, or left by handlers that ended before it.
func (f *family) alone() bool {
	live.Lock()
	defer live.Unlock()
	return claimed.Load() && len(live.families) == 1 && live.families[f]
}

// leave takes the family off the live ones, and reports whether the
// children left behind are this process's to kill: it claimed its orphans
// and no handler runs any more.
func (f *family) leave() bool {
	live.Lock()
	defer live.Unlock()
	delete(live.families, f)
	return claimed.Load() && len(live.families) == 0
}

// sweep kills every child of this process that is not a handler's shell,
// with every process below it, and reaps it, again and again until none
// is left (a process killed hands its children back to this process, a
// child subreaper) or a handler starts. It is for a process that claimed
// its orphans (ClaimOrphans), once no handler runs: its only children then
// are processes that handlers left, whatever their group, session or
// environment.
func sweep() {
	if !strangers() {
		return
	}
	deadline := time.Now().Add(finishWait)
	pause := time.Millisecond
	for {
		kids := strays()
		if len(kids) == 0 {
			return
		}
		var running []proc
		for _, p := range kids {
			if !p.gone() {
				running = append(running, p)
			}
		}
		if len(running) == 0 {
			continue // all reaped: their children, if any, are this process's now
		}
		if time.Now().After(deadline) {
			for _, p := range running {
				go p.reapBlocking()
			}
			return
		}
		for _, p := range running {
			p.killTree()
		}
		time.Sleep(pause)
		pause = min(pause*2, 20*time.Millisecond)
	}
}

// strays returns this process's children that no handler's shell is, while
// they are its to kill: it claimed its orphans and no handler runs.
func strays() []proc {
	live.Lock()
	defer live.Unlock()
	if !claimed.Load() || len(live.families) > 0 {
		return nil
	}
	self := os.Getpid()
	var out []proc
	for _, c := range childrenOf(self) {
		if live.shells[c] {
			continue
		}
		if p, ok := readProc(c); ok && p.ppid == self {
			out = append(out, p)
		}
	}
	return out
}

// killTree sends SIGKILL to p, a child of this process, and to every
// process below it. p's pid cannot have been reused: this process has not
// reaped it. A pid below it can: a process is taken for p's descendant only
// when its parent is still the process whose children were listed (same
// pid, same start time), and is signalled through a pidfd (see
// proc.signal).
func (p proc) killTree() {
	_ = syscall.Kill(p.pid, syscall.SIGKILL)
	queue := []proc{p}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		var below []proc
		for _, c := range childrenOf(q.pid) {
			if d, ok := readProc(c); ok && d.ppid == q.pid {
				below = append(below, d)
			}
		}
		if now, ok := readProc(q.pid); !ok || now.start != q.start {
			continue // q is gone: its pid may be another process's now
		}
		for _, d := range below {
			d.signal(syscall.SIGKILL)
			queue = append(queue, d)
		}
	}
}

// members finds the family's processes as they are now, the shell aside.
func (f *family) members() map[int]proc {
	f.unsure = false
	found := map[int]proc{}
	var queue []int
	add := func(p proc) {
		if _, ok := found[p.pid]; ok || p.pid == f.pgid {
			return
		}
		found[p.pid] = p
		f.seen[p.pid] = p.start
		queue = append(queue, p.pid)
	}
	if !f.reaped {
		for _, c := range childrenOf(f.pgid) {
			if p, ok := readProc(c); ok {
				add(p)
			}
		}
	}
	seen := make([]int, 0, len(f.seen))
	for pid := range f.seen {
		seen = append(seen, pid)
	}
	for _, pid := range seen {
		if p, ok := readProc(pid); ok && p.start == f.seen[pid] {
			add(p)
		}
	}
	for _, p := range f.orphans() {
		add(p)
	}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range childrenOf(pid) {
			if p, ok := readProc(c); ok {
				add(p)
			}
		}
	}
	return found
}

// orphans returns the children of this process that are this family's
// orphans: not a shell, and in the handler's group or holding its
// environment. A process whose environment matches several live families
// (two handlers of one hook) is left to the last of them to finish.
func (f *family) orphans() []proc {
	live.Lock()
	defer live.Unlock()
	var out []proc
	for _, c := range childrenOf(os.Getpid()) {
		if live.shells[c] {
			continue
		}
		p, ok := readProc(c)
		if !ok {
			continue
		}
		if start, ok := f.seen[c]; ok && start == p.start || p.pgid == f.pgid {
			out = append(out, p)
			continue
		}
		if len(f.marker) == 0 {
			continue
		}
		match, known := hasEnv(c, f.marker)
		if !known && p.state != 'Z' {
			f.unsure = true
		}
		if !match {
			continue
		}
		shared := false
		for g := range live.families {
			if g != f && slices.Equal(g.marker, f.marker) {
				shared = true
				break
			}
		}
		if !shared {
			out = append(out, p)
		}
	}
	return out
}

// strangers reports whether this process has a child that is not a
// handler's shell.
func strangers() bool {
	// One system call answers for the usual case of a process whose only
	// children were handlers' shells, all reaped: it has no child at all.
	// WNOWAIT leaves a child that has exited to whoever waits for it.
	var info unix.Siginfo
	err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
	if errors.Is(err, syscall.ECHILD) {
		return false
	}
	// An orphan comes back to the first thread of the process, its leader
	// (find_new_reaper in the kernel's exit.c), which in a Go program
	// never exits: its children are the only ones to look at.
	buf := bufs.Get().(*[4096]byte)
	defer bufs.Put(buf)
	b, ok := readSmall("/proc/self/task/"+strconv.Itoa(os.Getpid())+"/children", buf[:])
	if !ok || len(b) == len(buf) {
		return true // let the search for orphans decide
	}
	live.Lock()
	defer live.Unlock()
	for _, f := range bytes.Fields(b) {
		if c, err := strconv.Atoi(string(f)); err == nil && !live.shells[c] {
			return true
		}
	}
	return false
}

// bufs holds the buffers /proc files are read into.
var bufs = sync.Pool{New: func() any { return new([4096]byte) }}

// proc is one line of /proc/PID/stat, the fields a family needs.
type proc struct {
	pid, ppid, pgid int
	state           byte
	start           uint64 // clock ticks after boot
}

// readProc reads /proc/PID/stat.
func readProc(pid int) (proc, bool) {
	var buf [512]byte
	b, ok := readSmall("/proc/"+strconv.Itoa(pid)+"/stat", buf[:])
	if !ok {
		return proc{}, false
	}
	// The command name, in parentheses, may hold anything: the fields
	// follow its last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return proc{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 || len(f[0]) != 1 {
		return proc{}, false
	}
	p := proc{pid: pid, state: f[0][0]}
	p.ppid, _ = strconv.Atoi(f[1])
	p.pgid, _ = strconv.Atoi(f[2])
	p.start, _ = strconv.ParseUint(f[19], 10, 64) // field 22 of the whole line
	return p, true
}

// signal sends sig to p, unless its pid now belongs to another process.
func (p proc) signal(sig syscall.Signal) {
	fd, err := unix.PidfdOpen(p.pid, 0)
	if err != nil {
		if !errors.Is(err, syscall.ESRCH) && noPidfd(err) {
			// Before Linux 5.3: the check and the signal are two steps.
			if q, ok := readProc(p.pid); ok && q.start == p.start {
				_ = syscall.Kill(p.pid, sig)
			}
		}
		return
	}
	defer unix.Close(fd)
	if q, ok := readProc(p.pid); ok && q.start == p.start {
		_ = unix.PidfdSendSignal(fd, sig, nil, 0)
	}
}

func noPidfd(err error) bool {
	return errors.Is(err, syscall.ENOSYS) || errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL)
}

// gone reports whether p is out of the way: reaped now if it is this
// process's zombie, or a zombie another process is to reap. Only members
// and strays are reaped, never a shell: os/exec waits for those. A zombie
// of this process that cannot be reaped yet is a thread group leader whose
// other threads still run: it is not gone, and a signal reaches them.
func (p proc) gone() bool {
	if p.state != 'Z' {
		return false
	}
	if p.ppid != os.Getpid() {
		return true
	}
	var ws syscall.WaitStatus
	pid, err := syscall.Wait4(p.pid, &ws, syscall.WNOHANG, nil)
	return pid == p.pid || errors.Is(err, syscall.ECHILD)
}

// reapBlocking waits for p, which was killed but has not died yet.
func (p proc) reapBlocking() {
	var ws syscall.WaitStatus
	for {
		_, err := syscall.Wait4(p.pid, &ws, 0, nil)
		if !errors.Is(err, syscall.EINTR) {
			return
		}
	}
}

// childrenOf lists pid's children from /proc/PID/task/TID/children, or, on
// a kernel without those files, from a scan of /proc.
func childrenOf(pid int) []int {
	if !childrenFiles() {
		return scanChildren(pid)
	}
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	var out []int
	buf := bufs.Get().(*[4096]byte)
	defer bufs.Put(buf)
	for _, t := range listDir(dir, buf[:]) {
		b, ok := readSmall(dir+t+"/children", buf[:])
		if !ok {
			continue
		}
		if len(b) == len(buf) { // hundreds of children: read it whole
			var err error
			if b, err = os.ReadFile(dir + t + "/children"); err != nil {
				continue
			}
		}
		for _, f := range bytes.Fields(b) {
			if c, err := strconv.Atoi(string(f)); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// readSmall reads a /proc file into buf with plain system calls: os.Open
// would register each file with the poller, which costs more than the read.
// A file larger than buf is cut short.
func readSmall(path string, buf []byte) ([]byte, bool) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	defer unix.Close(fd)
	n := 0
	for n < len(buf) {
		m, err := unix.Read(fd, buf[n:])
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return nil, false
		}
		if m == 0 {
			break
		}
		n += m
	}
	return buf[:n], true
}

// listDir returns the names in a /proc folder, using buf for the reads.
func listDir(path string, buf []byte) []string {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer unix.Close(fd)
	var names []string
	for {
		n, err := unix.Getdents(fd, buf)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil || n <= 0 {
			return names
		}
		for b := buf[:n]; len(b) > 0; {
			used, _, more := unix.ParseDirent(b, -1, names)
			names, b = more, b[used:]
		}
	}
}

// childrenFiles reports whether the kernel lists children in /proc
// (CONFIG_PROC_CHILDREN).
var childrenFiles = sync.OnceValue(func() bool {
	_, err := os.Stat("/proc/self/task/" + strconv.Itoa(syscall.Gettid()) + "/children")
	return err == nil
})

// scanChildren finds pid's children by reading every process's stat.
func scanChildren(pid int) []int {
	var out []int
	eachProc(func(p proc) bool {
		if p.ppid == pid {
			out = append(out, p.pid)
		}
		return true
	})
	return out
}

// eachProc calls fn for every process in /proc, until fn returns false.
func eachProc(fn func(proc) bool) {
	var buf [8192]byte
	for _, name := range listDir("/proc", buf[:]) {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		if p, ok := readProc(pid); ok && !fn(p) {
			return
		}
	}
}

// groupRunning reports whether a process of the group pgid is running.
// kill(-pgid, 0) answers for zombies too, and where no one reaps them (a
// PID 1 that does not, when this process could not become a child
// subreaper) a zombie is there for ever: when the group still has a
// process, /proc says whether one is not a zombie.
func groupRunning(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	running := false
	eachProc(func(p proc) bool {
		running = p.pgid == pgid && p.state != 'Z' && p.state != 'X'
		return !running
	})
	return running
}

// hasEnv reports whether the environment pid started with holds every
// entry of want; known is false when the environment read empty, as it
// does while the process is inside execve, before its new image has one.
func hasEnv(pid int, want []string) (match, known bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		// A process whose first thread has exited while others run reads
		// as a zombie, its environment in its other threads.
		if b, err = threadEnviron(pid); err != nil {
			return false, true
		}
	}
	if len(b) == 0 {
		return false, false
	}
	have := map[string]bool{}
	for _, kv := range bytes.Split(b, []byte{0}) {
		have[string(kv)] = true
	}
	for _, w := range want {
		if !have[w] {
			return false, true
		}
	}
	return true, true
}

// threadEnviron reads the environment of pid through one of its threads
// other than the first.
func threadEnviron(pid int) ([]byte, error) {
	var buf [4096]byte
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	for _, tid := range listDir(dir, buf[:]) {
		if tid == strconv.Itoa(pid) {
			continue
		}
		if b, err := os.ReadFile(dir + tid + "/environ"); err == nil {
			return b, nil
		}
	}
	return nil, syscall.ESRCH
}
