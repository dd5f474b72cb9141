//go:build !linux

package lint

import (
	"context"
	"os/exec"
)

// scCommand starts ShellCheck as it is: elsewhere than on Linux, hookctl
// has neither a resource limit that GHC's runtime honours nor /proc to
// watch, and ShellCheck is bounded by its timeout alone.
func scCommand(ctx context.Context, bin string, args []string, _ int64) *exec.Cmd {
	return exec.CommandContext(ctx, bin, args...)
}

func scWatch(int, int64, func()) (stop func()) { return func() {} }
