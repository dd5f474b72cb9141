package lint

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookctl/hookctl/internal/capture"
	"github.com/hookctl/hookctl/schema"
)

const (
	// scBatchFiles bounds the texts one run of shellcheck checks, so that
	// a batch fits in shellcheckTimeout and shellcheckOutput.
	scBatchFiles = 128
	// scBatchArgs bounds the bytes of the file names on one shellcheck
	// command line, well below Windows' 32,767 characters.
	scBatchArgs = 16 << 10
	// scRCSize bounds the .shellcheckrc read from the workspace.
	scRCSize = 64 << 10
)

// scBatch is one run of shellcheck: texts of one dialect, under one
// .shellcheckrc, each in a file of dir named by names.
type scBatch struct {
	dialect string
	dir     string
	names   []string
	jobs    []*scJob
	// limit is the most memory the run may take (scMemory).
	limit int64
}

// scMaxText bounds a script or command handed to ShellCheck, which takes
// a hundred times and more a text's size in memory (ShellCheck 0.9.0 on one
// quoted word: 50 MB and 0.4 s for 256 KiB, 185 MB and 1.1 s for 1 MiB,
// 1.5 GB for 15 MiB): a larger text, which no hook needs, is named as not
// checked.
const scMaxText = 256 << 10

var errTooLargeForShellCheck = errors.New("it is larger than 256 KiB, the most hookctl hands ShellCheck, which takes a hundred times and more a text's size in memory")

// runShellcheck checks the jobs, lint having read read bytes of hooks.json
// files. Scripts are read here, bounded, and what shellcheck reads are
// copies: it never opens a file the workspace controls. A text that nests
// deeper than scMaxNesting is not handed over, and each run may take
// scMemory of what was read, scripts included. The texts not remembered from an earlier run are written to
// one private temporary folder, removed after, and checked in batches, as
// many at once as there are processors: a few processes in all, where one
// process per text cost some 90 ms each. Once stop is done no batch
// starts, those under way are killed, and nothing is remembered.
func runShellcheck(stop context.Context, bin string, jobs []*scJob, read int64) {
	var todo []*scJob
	for _, j := range jobs {
		if j.path != "" {
			src, err := schema.ReadFile(j.path, scMaxText)
			if tl := (*schema.TooLargeError)(nil); errors.As(err, &tl) {
				j.err = errTooLargeForShellCheck
				continue
			}
			if err != nil {
				j.err = errors.New(schema.ReadReason(err))
				continue
			}
			j.src = src
			read += int64(len(src))
		}
		if len(j.src) > scMaxText {
			j.err = errTooLargeForShellCheck
			continue
		}
		if scNesting(j.src) > scMaxNesting {
			j.err = errTooDeepForShellCheck
			continue
		}
		if c, ok := scCached(bin, j); ok {
			j.comments = c
			continue
		}
		todo = append(todo, j)
	}
	if len(todo) == 0 {
		return
	}
	tmp, err := os.MkdirTemp("", "hookctl-shellcheck-")
	if err != nil {
		for _, j := range todo {
			j.err = fmt.Errorf("there is no temporary folder to hand it the texts in (%v)", err)
		}
		return
	}
	defer os.RemoveAll(tmp)
	// Runs start in tmp's folders: a program named by a relative path
	// (HOOKCTL_SHELLCHECK=./bin/shellcheck) is found from here.
	if abs, err := filepath.Abs(bin); err == nil {
		bin = abs
	}
	procs := max(1, runtime.NumCPU())
	batches := scBatches(tmp, todo, procs)
	limit := scMemory(read)
	sem := make(chan struct{}, procs)
	var wg sync.WaitGroup
	for _, b := range batches {
		select {
		case sem <- struct{}{}:
		case <-stop.Done():
		}
		if stop.Err() != nil {
			break
		}
		wg.Add(1)
		b.limit = limit
		go func() {
			defer func() { <-sem; wg.Done() }()
			b.run(stop, bin)
		}()
	}
	wg.Wait()
	if stop.Err() != nil {
		return // the run is thrown away: nothing is remembered
	}
	for _, j := range todo {
		if j.err == nil {
			scRemember(bin, j)
		}
	}
}

// scBatches writes the jobs' texts into tmp, one folder for each dialect
// and workspace folder (with a copy of the .shellcheckrc that applies
// there), and splits them into batches: about as many as there are
// processors, more when a batch would be longer than scBatchFiles or
// scBatchArgs. A job whose text cannot be written gets its error.
func scBatches(tmp string, jobs []*scJob, procs int) []*scBatch {
	type key struct{ dialect, dir string }
	var order []key
	groups := map[key][]*scJob{}
	for _, j := range jobs {
		k := key{j.dialect, j.dir}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], j)
	}
	per := min(scBatchFiles, max(1, (len(jobs)+procs-1)/procs))
	var batches []*scBatch
	for gi, k := range order {
		group := groups[k]
		dir := filepath.Join(tmp, strconv.Itoa(gi))
		err := os.Mkdir(dir, 0o700)
		if err == nil {
			err = copyShellcheckRC(k.dir, dir)
		}
		if err != nil {
			for _, j := range group {
				j.err = err
			}
			continue
		}
		var b *scBatch
		size := 0
		for ji, j := range group {
			name := "t" + strconv.Itoa(ji)
			if err := os.WriteFile(filepath.Join(dir, name), j.src, 0o600); err != nil {
				j.err = fmt.Errorf("its text could not be handed over (%v)", err)
				continue
			}
			if b == nil || len(b.names) >= per || size+len(name)+1 > scBatchArgs {
				b = &scBatch{dialect: k.dialect, dir: dir}
				batches = append(batches, b)
				size = 0
			}
			b.names = append(b.names, name)
			b.jobs = append(b.jobs, j)
			size += len(name) + 1
		}
	}
	return batches
}

// copyShellcheckRC copies the .shellcheckrc (or shellcheckrc) that
// ShellCheck would read for a script in dir, the first in dir or a folder
// above it, into to, where the batch's files are: ShellCheck looks for it
// next to the file it checks. None found, the user's own is copied, the
// one ShellCheck falls back to ($XDG_CONFIG_HOME/shellcheckrc, else
// ~/.config/shellcheckrc, then ~/.shellcheckrc); none of those either, an
// empty one is written. So ShellCheck never looks above to, where a
// .shellcheckrc in the shared temporary folder (anyone can write one
// there) could turn checks off. Only the settings scSafeRC keeps are
// copied.
func copyShellcheckRC(dir, to string) error {
	var candidates []string
	for d := dir; ; {
		candidates = append(candidates, filepath.Join(d, ".shellcheckrc"), filepath.Join(d, "shellcheckrc"))
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		candidates = append(candidates, filepath.Join(x, "shellcheckrc"))
	} else if h := os.Getenv("HOME"); filepath.IsAbs(h) {
		candidates = append(candidates, filepath.Join(h, ".config", "shellcheckrc"))
	}
	if h := os.Getenv("HOME"); filepath.IsAbs(h) {
		candidates = append(candidates, filepath.Join(h, ".shellcheckrc"))
	}
	rc := filepath.Join(to, ".shellcheckrc")
	for _, p := range candidates {
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		src, err := schema.ReadFile(p, scRCSize)
		if err != nil {
			return fmt.Errorf("%s %s", schema.VisibleText(p), schema.ReadReason(err))
		}
		return os.WriteFile(rc, scSafeRC(src), 0o600)
	}
	return os.WriteFile(rc, nil, 0o600)
}

// scKeptRC are the settings of a .shellcheckrc that are copied: which
// checks run, the dialect, and the extra analysis. The rest is dropped:
// external-sources=true makes ShellCheck read the files a script
// sources, /dev/zero included (past 3 GB), source-path where it looks for
// them, and a key ShellCheck may add later is not known to be harmless.
var scKeptRC = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"disable": true, "enable": true, "shell": true, "extended-analysis": true}
})

// scSafeRC returns the settings of the .shellcheckrc src that scKeptRC
// keeps, one a line. ShellCheck reads a line as settings separated by
// blanks ("disable=SC2086 external-sources=true"), up to a #.
func scSafeRC(src []byte) []byte {
	var out bytes.Buffer
	for _, line := range bytes.Split(src, []byte("\n")) {
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		for _, kv := range bytes.Fields(line) {
			if k, _, ok := bytes.Cut(kv, []byte("=")); ok && scKeptRC()[string(k)] {
				out.Write(kv)
				out.WriteByte('\n')
			}
		}
	}
	return out.Bytes()
}

// run runs shellcheck on the batch and hands each job its findings. When
// the run fails, is stopped at shellcheckTimeout or prints more than
// shellcheckOutput, every job of the batch gets the reason, which says
// how many texts the run checked.
func (b *scBatch) run(stop context.Context, bin string) {
	comments, err := b.check(stop, bin)
	if isMemoryError(err) && len(b.jobs) > 1 {
		// One text may need all of it: check each half on its own.
		half := len(b.jobs) / 2
		for _, h := range []*scBatch{
			{dialect: b.dialect, dir: b.dir, names: b.names[:half], jobs: b.jobs[:half], limit: b.limit},
			{dialect: b.dialect, dir: b.dir, names: b.names[half:], jobs: b.jobs[half:], limit: b.limit},
		} {
			if stop.Err() == nil {
				h.run(stop, bin)
			}
		}
		return
	}
	if err != nil {
		switch n := len(b.jobs); {
		case n == 2:
			err = fmt.Errorf("%w (one run checked it with one other script or command, which was not checked either)", err)
		case n > 2:
			err = fmt.Errorf("%w (one run checked it with %d other scripts and commands, none of which was checked)", err, n-1)
		}
		for _, j := range b.jobs {
			j.err = err
		}
		return
	}
	byName := make(map[string]*scJob, len(b.jobs))
	for i, j := range b.jobs {
		byName[b.names[i]] = j
		j.comments = []scComment{}
	}
	for _, c := range comments {
		if j := byName[c.File]; j != nil {
			j.comments = append(j.comments, c)
		}
	}
}

func (b *scBatch) check(stop context.Context, bin string) ([]scComment, error) {
	ctx, cancel := context.WithTimeout(stop, shellcheckTimeout)
	defer cancel()
	args := append([]string{"--format=json1", "-s", b.dialect, "-e", shellcheckExcluded}, b.names...)
	cmd := scCommand(ctx, bin, args, b.limit)
	cmd.Dir = b.dir
	stdout, stderr := capture.New(shellcheckOutput), capture.New(4096)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = time.Second
	var over atomic.Bool
	err := cmd.Start()
	if err == nil {
		unwatch := scWatch(cmd.Process.Pid, b.limit, func() {
			over.Store(true)
			cmd.Process.Kill()
		})
		err = cmd.Wait()
		unwatch()
	}
	var exit *exec.ExitError
	switch {
	case stop.Err() != nil:
		return nil, stop.Err()
	case over.Load():
		return nil, &scMemoryError{limit: b.limit}
	case ctx.Err() != nil:
		return nil, fmt.Errorf("it did not finish within %s", shellcheckTimeout)
	case errors.As(err, &exit) && exit.ExitCode() == 251 && bytes.Contains(stderr.Bytes(), []byte("out of memory")):
		// GHC's runtime at the address-space limit (scCommand).
		return nil, &scMemoryError{limit: b.limit}
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		// Findings.
	case err != nil:
		return nil, fmt.Errorf("shellcheck failed (%v)%s", err, stderrLine(stderr.Bytes()))
	}
	if stdout.Cut() > 0 {
		return nil, fmt.Errorf("it printed more than %d MiB", shellcheckOutput>>20)
	}
	var out struct {
		Comments []scComment `json:"comments"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return nil, fmt.Errorf("its output is not the JSON of --format=json1 (%v)", err)
	}
	return out.Comments, nil
}
