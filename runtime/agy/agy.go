package agy

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hookctl/hookctl/internal/capture"
	"github.com/hookctl/hookctl/internal/lazyre"
	"github.com/hookctl/hookctl/runtime"
)

// Version is a version of agy, as "agy --version" prints it.
type Version struct {
	Major, Minor, Patch int
	// Text is the version as printed, "1.1.27".
	Text string
}

var versionRE = lazyre.New(`(?:^|[^0-9.])(\d+)\.(\d+)\.(\d+)(?:$|[^0-9.])`)

// ParseVersion finds the first x.y.z in what agy --version printed.
func ParseVersion(out string) (Version, bool) {
	m := versionRE().FindStringSubmatch(out)
	if m == nil {
		return Version{}, false
	}
	a, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[2])
	c, _ := strconv.Atoi(m[3])
	return Version{a, b, c, m[1] + "." + m[2] + "." + m[3]}, true
}

// AtLeast reports whether v is the version "x.y.z" or later.
func (v Version) AtLeast(s string) bool {
	w, ok := ParseVersion(s)
	if !ok {
		return true
	}
	switch {
	case v.Major != w.Major:
		return v.Major > w.Major
	case v.Minor != w.Minor:
		return v.Minor > w.Minor
	}
	return v.Patch >= w.Patch
}

// Find names the agent's program: the one HOOKCTL_AGY names (how is
// "HOOKCTL_AGY"), else agy on PATH (how is "PATH"). err is set when
// neither names one.
func Find(getenv func(string) string) (prog, how string, err error) {
	if prog := getenv("HOOKCTL_AGY"); prog != "" {
		return prog, "HOOKCTL_AGY", nil
	}
	p, err := exec.LookPath("agy")
	if err != nil {
		return "", "", err
	}
	return p, "PATH", nil
}

// HooksArgs are the arguments that ask agy for its list of hooks: a free
// read that starts no model turn.
var HooksArgs = []string{"-p", "/hooks", "--output-format", "json"}

// ErrTimeout is the error of a [Run] stopped at its timeout.
var ErrTimeout = errors.New("timed out")

// maxOutput is how much of the agent's output [Run] keeps.
const maxOutput = 1 << 20

// Run runs the agent with args in the folder dir ("" for the current
// one: the agent loads the workspace hooks of the folder it runs in), in
// its own process group, and stops the whole group at the timeout: a
// hanging agent must not hang its caller. Its output, stdout and stderr
// together, is bounded.
func Run(ctx context.Context, prog, dir string, timeout time.Duration, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Dir = dir
	runtime.KillGroupOnCancel(cmd)
	cmd.WaitDelay = time.Second
	cmd.Stdin = nil
	out := capture.New(maxOutput)
	cmd.Stdout, cmd.Stderr = out, out
	err := cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return out.String(), ErrTimeout
	}
	return out.String(), err
}

// Hooks reads the names of the hooks in agy's answer to "/hooks": every
// array under a key "hooks" anywhere in the JSON, whose entries are
// names, or objects with a "name". ok is false when the answer holds no
// JSON at all, or no such array.
func Hooks(out string) (names []string, ok bool) {
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

// LogPath is where agy writes its log, under the home folder home.
func LogPath(home string) string {
	return filepath.Join(home, ".gemini", "antigravity-cli", "cli.log")
}

// TrustedFoldersPath is the file of agy's folder trust, under the home
// folder home.
func TrustedFoldersPath(home string) string {
	return filepath.Join(home, ".gemini", "trustedFolders.json")
}

// PluginDirs are the folders agy installs plugins in, under the home
// folder home, each plugin in a folder of its name.
func PluginDirs(home string) []string {
	return []string{filepath.Join(home, ".gemini", "config", "plugins"), filepath.Join(home, ".gemini", "antigravity-cli", "plugins")}
}

// The decisions of [FolderTrust].
const (
	Trusted   = "trusted"
	Untrusted = "untrusted"
)

// FolderTrust is the agent's trust decision for the folder dir, from the
// contents src of ~/.gemini/trustedFolders.json: [Trusted], [Untrusted],
// or "" when the file says nothing of it; rule is the entry that decides,
// "PATH: LEVEL". The file maps paths to TRUST_FOLDER (the folder and what
// it holds), TRUST_PARENT (the folder that holds it) or DO_NOT_TRUST; the
// most specific path decides. ok is false when src is not a JSON object.
func FolderTrust(src []byte, dir string) (decision, rule string, ok bool) {
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
			decision = Trusted
		case "DO_NOT_TRUST":
			decision = Untrusted
		default:
			decision = ""
		}
	}
	return decision, rule, true
}
