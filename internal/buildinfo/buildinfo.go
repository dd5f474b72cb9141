// Package buildinfo says which build of hookctl this is: the release version
// (or devel), the commit it was built from with the commit's time, whether
// the tree had changes, and the Go version. A release build sets the
// version, commit and date with -ldflags (.goreleaser.yaml); without them,
// they come from what the go command recorded.
package buildinfo

import (
	"runtime/debug"
	"strings"
	"time"

	"github.com/hookctl/hookctl/schema"
)

// Info is what the go command recorded of this build, with the commit and
// date a release build set in their place (Stamped).
func Info(commit, date string) *debug.BuildInfo {
	bi, _ := debug.ReadBuildInfo()
	return Stamped(bi, commit, date)
}

// Version is the release version: version when a release build set it,
// else the module version the go command recorded when it is a release,
// else "devel" (a build from a checkout that is not at a release tag).
func Version(version string) string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		return Release(bi.Main.Version)
	}
	return "devel"
}

// Stamped is bi with the commit and date a release build set in place of
// what the go command recorded, and otherwise, for a module built at a
// commit (go install ...@COMMIT, which records no version control
// information), the commit and time its pseudo-version names.
func Stamped(bi *debug.BuildInfo, commit, date string) *debug.BuildInfo {
	if bi == nil {
		if commit == "" {
			return nil
		}
		bi = &debug.BuildInfo{}
	}
	out := *bi
	out.Settings = nil
	has := false
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			has = true
			if commit != "" {
				continue
			}
		case s.Key == "vcs.time" && commit != "":
			continue
		}
		out.Settings = append(out.Settings, s)
	}
	v := strings.TrimSuffix(bi.Main.Version, "+dirty")
	if commit == "" && !has && isPseudoVersion(v) {
		// vX.Y.Z-[pre.]YYYYMMDDhhmmss-abcdefabcdef
		tail := v[len(v)-len("20261202103000-1a2b3c4d5e6f"):]
		commit = tail[15:]
		if t, err := time.Parse("20060102150405", tail[:14]); err == nil {
			date = schema.FormatTime(t)
		}
	}
	if commit != "" {
		out.Settings = append(out.Settings, debug.BuildSetting{Key: "vcs.revision", Value: commit})
		if date != "" {
			out.Settings = append(out.Settings, debug.BuildSetting{Key: "vcs.time", Value: date})
		}
	}
	return &out
}

// isPseudoVersion reports whether v ends as the version the go command
// gives a commit that no release tag names: a 14-digit time and a
// 12-digit commit (v0.0.0-20261202103000-1a2b3c4d5e6f). It is checked by
// hand, not by a regular expression compiled at every start.
func isPseudoVersion(v string) bool {
	const tail = len("20261202103000-1a2b3c4d5e6f")
	if len(v) <= tail || (v[len(v)-tail-1] != '-' && v[len(v)-tail-1] != '.') {
		return false
	}
	for i, c := range []byte(v[len(v)-tail:]) {
		switch {
		case i == 14:
			if c != '-' {
				return false
			}
		case i < 14:
			if c < '0' || c > '9' {
				return false
			}
		default:
			if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
				return false
			}
		}
	}
	return true
}

// Release is the module version the go command recorded, when it is a
// release: not "(devel)" nor a pseudo-version, and without the "+dirty"
// the version line says as "modified"; otherwise "devel".
func Release(v string) string {
	v = strings.TrimSuffix(v, "+dirty")
	if v == "" || v == "(devel)" || isPseudoVersion(v) {
		return "devel"
	}
	return v
}

// Line says, on one line, which build this is: the release version v (or
// devel), the commit it was built from with the commit's time and whether
// the tree had changes, and the Go version, as bi recorded them.
func Line(v string, bi *debug.BuildInfo) string {
	line := "hookctl " + v
	if bi == nil {
		return line
	}
	var rev, at string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	switch {
	case rev != "":
		parts := []string{"commit " + rev[:min(12, len(rev))]}
		if t, err := time.Parse(time.RFC3339Nano, at); err == nil {
			parts = append(parts, schema.FormatTime(t))
		}
		if modified {
			parts = append(parts, "modified")
		}
		line += " (" + strings.Join(parts, ", ") + ")"
	case v == "devel":
		// go build -buildvcs=false, or a build outside a git checkout.
		line += " (commit unknown)"
	}
	if bi.GoVersion != "" {
		line += " " + bi.GoVersion
	}
	return line
}
