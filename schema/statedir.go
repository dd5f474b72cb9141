package schema

import (
	"errors"
	"path/filepath"
	"runtime"
)

// StateDir is the folder of what hookctl keeps between runs on this
// machine (the log of runs, export's records, the journals of edits under
// way): $XDG_STATE_HOME/hookctl, else $HOME/.local/state/hookctl. A
// relative XDG_STATE_HOME is ignored, as the XDG base directory
// specification asks. On Windows, where HOME is not set,
// %LocalAppData%\hookctl, the folder Windows gives a program's data that
// stays on the machine.
func StateDir(getenv func(string) string) (string, error) {
	if d := getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "hookctl"), nil
	}
	home := getenv("HOME")
	if home == "" {
		if runtime.GOOS == "windows" {
			if d := getenv("LocalAppData"); d != "" && filepath.IsAbs(d) {
				return filepath.Join(d, "hookctl"), nil
			}
			return "", errors.New("neither HOME nor LocalAppData is set")
		}
		return "", errors.New("HOME is not set")
	}
	return filepath.Join(home, ".local", "state", "hookctl"), nil
}
