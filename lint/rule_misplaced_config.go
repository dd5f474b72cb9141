package lint

import (
	"path/filepath"
)

type misplacedConfig struct{ RuleBase }

func newMisplacedConfig() Rule {
	return &misplacedConfig{newBase("misplaced-config", Warning,
		"a hooks.json where the agent does not read it (.agent/hooks.json, .gemini/hooks.json, ~/.gemini/hooks.json)")}
}

// misplacedWorkspace are places in a workspace where people put hooks.json
// by mistake; the agent reads only .agents/hooks.json.
var misplacedWorkspace = []string{
	".agent/hooks.json",
	".gemini/hooks.json",
	".gemini/config/hooks.json",
	".antigravity/hooks.json",
	"agents/hooks.json",
	".agents/hooks/hooks.json",
	".agents/config/hooks.json",
}

// misplacedHome are places in the home folder where people put hooks.json
// by mistake; the agent reads only ~/.gemini/config/hooks.json.
var misplacedHome = []string{
	".gemini/hooks.json",
	".gemini/antigravity/hooks.json",
	".gemini/antigravity-cli/hooks.json",
	".gemini/config/hooks/hooks.json",
	".agents/hooks.json",
	".agent/hooks.json",
	".config/gemini/hooks.json",
}

func (r *misplacedConfig) CheckRun(run *Run) {
	for _, ws := range run.Workspaces {
		for _, p := range misplacedWorkspace {
			if run.fs.exists(filepath.Join(ws.Dir, p)) {
				name := joinName(ws.Name, p)
				r.report(&File{Name: name, choice: ws.choice}, fileStart, joinName(ws.Name, ".agents/hooks.json"),
					"the agent does not read %s: workspace hooks go in %s", name, joinName(ws.Name, ".agents/hooks.json"))
			}
		}
	}
	if run.Home != nil {
		for _, p := range misplacedHome {
			if run.fs.exists(filepath.Join(run.Home.Dir, p)) {
				name := joinName(run.Home.Name, p)
				r.report(&File{Name: name, choice: run.Home.choice}, fileStart, joinName(run.Home.Name, ".gemini/config/hooks.json"),
					"the agent does not read %s: your own hooks go in %s", name, joinName(run.Home.Name, ".gemini/config/hooks.json"))
			}
		}
	}
}

func joinName(dir, p string) string {
	if dir == "" || dir == "." {
		return p
	}
	return filepath.ToSlash(filepath.Join(dir, p))
}
