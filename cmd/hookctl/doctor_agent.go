package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fatih/color"

	"github.com/hookctl/hookctl/schema"
)

// What hookctl knows of the agent's outputs is read defensively: none of
// them is documented, and each version may print them otherwise. What
// cannot be read is said, never guessed at. docs/agent.md records, version
// by version, what each output was seen to hold.

// agentVersion is a version of agy, as "agy --version" prints it.
type agentVersion struct {
	major, minor, patch int
	text                string
}

var versionRE = regexp.MustCompile(`(?:^|[^0-9.])(\d+)\.(\d+)\.(\d+)(?:$|[^0-9.])`)

// parseAgentVersion finds the first x.y.z in what agy --version printed.
func parseAgentVersion(out string) (agentVersion, bool) {
	m := versionRE.FindStringSubmatch(out)
	if m == nil {
		return agentVersion{}, false
	}
	a, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[2])
	c, _ := strconv.Atoi(m[3])
	return agentVersion{a, b, c, m[1] + "." + m[2] + "." + m[3]}, true
}

// atLeast reports whether v is the version "x.y.z" or later.
func (v agentVersion) atLeast(s string) bool {
	w, ok := parseAgentVersion(s)
	if !ok {
		return true
	}
	switch {
	case v.major != w.major:
		return v.major > w.major
	case v.minor != w.minor:
		return v.minor > w.minor
	}
	return v.patch >= w.patch
}

// runAgent runs the agent with args, in its own process group, and stops
// the whole group at the timeout: a hanging agent must not hang doctor.
// Its output is bounded.
func runAgent(ctx context.Context, prog string, timeout time.Duration, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	cmd.Stdin = nil
	var out boundedBuffer
	out.max = 1 << 20
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return out.String(), errAgentTimeout
	}
	return out.String(), err
}

var errAgentTimeout = errors.New("timed out")

// boundedBuffer keeps the first max bytes written to it.
type boundedBuffer struct {
	bytes.Buffer
	max int
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// agentHooks reads the names of the hooks in agy's answer to "/hooks":
// every array under a key "hooks" anywhere in the JSON, whose entries are
// names, or objects with a "name". ok is false when the answer holds no
// JSON at all, or no such array.
func agentHooks(out string) (names []string, ok bool) {
	// The JSON may follow a banner: start at the first { or [.
	i := strings.IndexAny(out, "{[")
	if i < 0 {
		return nil, false
	}
	var v any
	dec := json.NewDecoder(strings.NewReader(out[i:]))
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if strings.EqualFold(k, "hooks") {
					if arr, isArr := x.([]any); isArr {
						ok = true
						for _, e := range arr {
							switch e := e.(type) {
							case string:
								names = append(names, e)
							case map[string]any:
								if n, isStr := e["name"].(string); isStr {
									names = append(names, n)
								}
							}
						}
					}
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	return names, ok
}

// The lines of the agent's log that hookctl reads: a file it could not
// parse, and how many hooks it loaded (agy 1.1.x's wording).
var (
	logParseFailed = regexp.MustCompile(`failed to parse hooks\.json at (\S+?):? (json: .*|invalid .*|unexpected .*|.*)$`)
	logLoaded      = regexp.MustCompile(`loaded (\d+) named hooks? from (\d+) hooks\.json file`)
	goTypeError    = regexp.MustCompile(`json: cannot unmarshal (\w+)(?: ([^ ]+))? into Go (?:struct field ([\w.$]+)|value) of type (\S+)`)
)

// agentLog is what the agent's log says of hooks.json files, its latest
// lines of each kind.
type agentLog struct {
	// Failed is the latest "failed to parse" line's file and message, and
	// its line number in the log.
	FailedPath, FailedMsg string
	FailedLine            int
	// Loaded is the latest "loaded N named hooks from M files" line, and
	// its line number; -1 when there is none.
	Loaded, LoadedFiles, LoadedLine int
}

// maxLogTail is how much of the end of the agent's log doctor reads.
const maxLogTail = 4 << 20

// readAgentLog reads the end of the agent's log, bounded, and finds its
// latest lines about hooks.json files.
func readAgentLog(path string) (*agentLog, error) {
	f, info, err := schema.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info.Size() > maxLogTail {
		if _, err := f.Seek(info.Size()-maxLogTail, 0); err != nil {
			return nil, err
		}
	}
	var buf bytes.Buffer
	if _, err := schema.CopyBounded(&buf, f, path, maxLogTail+64<<10); err != nil {
		return nil, err
	}
	l := &agentLog{Loaded: -1}
	for n, line := range strings.Split(buf.String(), "\n") {
		if m := logParseFailed.FindStringSubmatch(line); m != nil {
			l.FailedPath, l.FailedMsg, l.FailedLine = m[1], strings.TrimSpace(m[2]), n+1
		}
		if m := logLoaded.FindStringSubmatch(line); m != nil {
			l.Loaded, _ = strconv.Atoi(m[1])
			l.LoadedFiles, _ = strconv.Atoi(m[2])
			l.LoadedLine = n + 1
		}
	}
	return l, nil
}

// locateAgentError maps a Go decoding error from the agent's log ("json:
// cannot unmarshal string into Go struct field handler.PreToolUse.hooks.timeout
// of type int") to the value in cfg it means: the first value the
// emulated decoder cannot read with that field path and kind.
func locateAgentError(cfg *schema.Config, msg string) (schema.AgentError, bool) {
	if cfg == nil || cfg.Root == nil {
		return schema.AgentError{}, false
	}
	errs := schema.AgentErrors(cfg.Root, schema.AgentOptions{})
	m := goTypeError.FindStringSubmatch(msg)
	if m == nil {
		if len(errs) > 0 {
			return errs[0], true
		}
		return schema.AgentError{}, false
	}
	kind, field := m[1], ""
	if m[3] != "" {
		// The struct's own name comes first: handler.PreToolUse.hooks.timeout.
		if _, rest, ok := strings.Cut(m[3], "."); ok {
			field = rest
		}
	}
	for _, e := range errs {
		if e.Field == field && strings.HasPrefix(e.Value, kind) {
			return e, true
		}
	}
	for _, e := range errs {
		if e.Field == field {
			return e, true
		}
	}
	return schema.AgentError{}, false
}

// sameFile reports whether two paths name one file.
func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	if err1 == nil && err2 == nil {
		return os.SameFile(ia, ib)
	}
	ca, _ := filepath.Abs(a)
	cb, _ := filepath.Abs(b)
	return ca == cb
}

// folderTrust is the agent's trust decision for a folder, from
// ~/.gemini/trustedFolders.json: "trusted", "untrusted", or "" when the
// file says nothing of it. The file maps paths to TRUST_FOLDER (the folder
// and what it holds), TRUST_PARENT (the folder that holds it) or
// DO_NOT_TRUST; the most specific path decides.
func folderTrust(src []byte, dir string) (decision, rule string, ok bool) {
	var m map[string]any
	if err := json.Unmarshal(src, &m); err != nil {
		return "", "", false
	}
	best := -1
	for p, v := range m {
		level, isStr := v.(string)
		if !isStr {
			continue
		}
		scope := filepath.Clean(p)
		if strings.EqualFold(level, "TRUST_PARENT") {
			scope = filepath.Dir(scope)
		}
		if dir != scope && !strings.HasPrefix(dir, scope+string(filepath.Separator)) {
			continue
		}
		if len(scope) <= best {
			continue
		}
		best = len(scope)
		rule = p + ": " + level
		switch strings.ToUpper(level) {
		case "TRUST_FOLDER", "TRUST_PARENT":
			decision = "trusted"
		case "DO_NOT_TRUST":
			decision = "untrusted"
		default:
			decision = ""
		}
	}
	return decision, rule, true
}

// The colours of doctor's marks.
var (
	greenAttr  = color.FgGreen
	yellowAttr = color.FgYellow
	redAttr    = color.FgRed
)
