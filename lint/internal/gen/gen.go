// Package gen writes large hooks.json files for lint's benchmarks and for
// timing hookctl lint against other checkers.
package gen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Hooks returns a hooks.json of n hooks in the shapes real files use:
// tool events with matchers, handlers run directly and through
// interpreters, inline shell; every fifth hook carries mistakes that rules
// report.
func Hooks(n int) []byte { return hooks(n, false) }

// CleanHooks is Hooks without the mistakes: every hook follows the format.
func CleanHooks(n int) []byte { return hooks(n, true) }

func hooks(n int, clean bool) []byte {
	var b strings.Builder
	b.WriteString("{\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		kind := i % 5
		if clean && kind == 4 {
			kind = 0
		}
		switch kind {
		case 0:
			fmt.Fprintf(&b, `  "gate-%d": {
    "PreToolUse": [
      {"matcher": "run_command|view_file", "hooks": [{"type": "command", "command": "./hooks/gate.sh %d", "timeout": 10}]}
    ]
  }`, i, i)
		case 1:
			fmt.Fprintf(&b, `  "format-%d": {
    "PostToolUse": [
      {"matcher": "write_to_file|replace_file_content|multi_replace_file_content", "hooks": [{"command": "python3 hooks/format.py --hook %d"}]}
    ]
  }`, i, i)
		case 2:
			fmt.Fprintf(&b, `  "notify-%d": {
    "enabled": true,
    "Stop": [{"command": "./hooks/notify.sh %d", "timeout": 30}],
    "PostInvocation": [{"command": "echo '{}' # %d"}]
  }`, i, i, i)
		case 3:
			fmt.Fprintf(&b, `  "browser-%d": {
    "PreToolUse": [
      {"matcher": "browser_.*", "hooks": [{"command": "./hooks/gate.sh browser %d"}]}
    ]
  }`, i, i)
		case 4:
			fmt.Fprintf(&b, `  "mistake-%d": {
    "pre_tool_use": [],
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"command": "node .agents/hooks/check-%d.mjs", "timeout": 5000}]}
    ]
  }`, i, i)
		}
	}
	b.WriteString("\n}\n")
	return []byte(b.String())
}

// InlineHooks returns a hooks.json of n hooks whose handlers are inline
// shell, as real files write them: a guarded script with a literal
// fallback answer, cd and git, printf and a here-document printing
// answers; every fifth hook carries three mistakes that the command rules
// report (a misspelt answer key, a path from the workspace root, a bad
// substitution). Commands differ from hook to hook, as in a real file.
func InlineHooks(n int) []byte {
	var b strings.Builder
	b.WriteString("{\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, `  "gate-%d": {
    "PreToolUse": [
      {"matcher": "run_command", "hooks": [{"command": "[ -x ./hooks/gate.sh ] && ./hooks/gate.sh %d || echo '{\"decision\":\"ask\"}'"}]}
    ]
  }`, i, i)
		case 1:
			fmt.Fprintf(&b, `  "diff-%d": {
    "PostToolUse": [
      {"matcher": "write_to_file", "hooks": [{"command": "cd \"$HOOKCTL_WORKSPACE\" && git diff --stat -- src/%d >&2; echo '{}'"}]}
    ]
  }`, i, i)
		case 2:
			fmt.Fprintf(&b, `  "tests-%d": {
    "Stop": [{"command": "printf '{\"decision\":\"%%s\",\"reason\":\"%%s\"}\\n' continue 'run the tests (%d)'"}]
  }`, i, i)
		case 3:
			fmt.Fprintf(&b, `  "remind-%d": {
    "PreInvocation": [{"command": "cat <<'EOF'\n{\"injectSteps\":[{\"ephemeralMessage\":\"reminder %d\"}]}\nEOF"}]
  }`, i, i)
		case 4:
			fmt.Fprintf(&b, `  "mistake-%d": {
    "PreToolUse": [{"hooks": [{"command": "echo '{\"decison\":\"allow\"}' # %d"}]}],
    "Stop": [{"command": "git add .agents/MEMORY-%d.md"}],
    "PostInvocation": [{"command": "echo ${workspace.path} %d >&2"}]
  }`, i, i, i, i)
		}
	}
	b.WriteString("\n}\n")
	return []byte(b.String())
}

// InlineWorkspace writes dir/.agents/hooks.json with InlineHooks(n) and
// the script it names.
func InlineWorkspace(dir string, n int) error {
	return write(dir, InlineHooks(n))
}

// Workspace writes dir/.agents/hooks.json with n hooks (without mistakes
// when clean is set), and the scripts its commands name.
func Workspace(dir string, n int, clean bool) error {
	return write(dir, hooks(n, clean))
}

func write(dir string, src []byte) error {
	agents := filepath.Join(dir, ".agents")
	for _, p := range []string{"hooks/gate.sh", "hooks/format.py", "hooks/notify.sh"} {
		path := filepath.Join(agents, p)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			return err
		}
		if err := os.Chmod(path, 0o755); err != nil {
			return err
		}
	}
	path := filepath.Join(agents, "hooks.json")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		return err
	}
	return os.Chmod(path, 0o644)
}
