package main

import (
	"os"
	"time"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/runtime/tracelog"
	"github.com/hookctl/hookctl/runtime/trust"
)

// factory is what the commands take from the world: the standard streams,
// the working folder, the home folder, the environment, the trust store,
// the log of runs and the clock. main builds it once; a test builds one of fixed folders
// and a fixed clock, and calls a command's run function with it.
type factory struct {
	streams
	// getwd returns the working folder (os.Getwd).
	getwd func() (string, error)
	// homeDir returns the home folder (os.UserHomeDir).
	homeDir func() (string, error)
	// userHome returns the home folder whose .gemini/config/hooks.json is
	// the user file, or why it cannot be used (runtime.UserHome).
	userHome func() (string, error)
	// getenv reads the environment (os.Getenv).
	getenv func(string) string
	// now is the clock (time.Now).
	now func() time.Time
	// trustStore returns the path of the trust store (trust.DefaultPath).
	trustStore func() (string, error)
	// defaultLog returns the log of runs a command reads and writes when
	// none is named (tracelog.Default).
	defaultLog func() (*tracelog.Log, error)
	// trusted returns the check of whether a workspace file's hooks may
	// run, from the trust store (trustChecker).
	trusted func() func(*runtime.Source) (bool, string)
}

// newFactory is the factory of the real world, with the streams s.
func newFactory(s streams) *factory {
	return &factory{
		streams:    s,
		getwd:      os.Getwd,
		homeDir:    os.UserHomeDir,
		userHome:   runtime.UserHome,
		getenv:     os.Getenv,
		now:        time.Now,
		trustStore: trust.DefaultPath,
		defaultLog: tracelog.Default,
		trusted:    trustChecker,
	}
}
