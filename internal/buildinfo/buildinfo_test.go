package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestVersionLine(t *testing.T) {
	vcs := func(rev, at, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{
			{Key: "-buildmode", Value: "exe"},
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: rev},
			{Key: "vcs.time", Value: at},
			{Key: "vcs.modified", Value: modified},
		}
	}
	const rev = "1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d"
	for _, c := range []struct {
		name, version string
		bi            *debug.BuildInfo
		want          string
	}{
		{"a checkout with changes", "devel", &debug.BuildInfo{GoVersion: "go1.26.8", Settings: vcs(rev, "2026-12-02T10:00:00Z", "true")},
			"hookctl devel (commit 1a2b3c4d5e6f, 2026-12-02T10:00:00Z, modified) go1.26.8"},
		{"a clean checkout", "devel", &debug.BuildInfo{GoVersion: "go1.26.8", Settings: vcs(rev, "2026-12-02T10:00:00Z", "false")},
			"hookctl devel (commit 1a2b3c4d5e6f, 2026-12-02T10:00:00Z) go1.26.8"},
		{"a commit time in another zone", "devel", &debug.BuildInfo{GoVersion: "go1.26.8", Settings: vcs(rev, "2026-12-02T11:00:00+01:00", "false")},
			"hookctl devel (commit 1a2b3c4d5e6f, 2026-12-02T10:00:00Z) go1.26.8"},
		{"a release", "v1.2.3", &debug.BuildInfo{GoVersion: "go1.26.8", Settings: vcs(rev, "2026-12-02T10:00:00Z", "false")},
			"hookctl v1.2.3 (commit 1a2b3c4d5e6f, 2026-12-02T10:00:00Z) go1.26.8"},
		{"a release from the module proxy", "v1.2.3", &debug.BuildInfo{GoVersion: "go1.26.8"},
			"hookctl v1.2.3 go1.26.8"},
		{"no version control information", "devel", &debug.BuildInfo{GoVersion: "go1.26.8"},
			"hookctl devel (commit unknown) go1.26.8"},
		{"no build information", "devel", nil, "hookctl devel"},
	} {
		if got := Line(c.version, c.bi); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestStampedVersionLine: a release build's commit and date, and
// otherwise those a pseudo-version names, fill the version line where the
// go command recorded none.
func TestStampedVersionLine(t *testing.T) {
	const rev = "1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d"
	recorded := []debug.BuildSetting{{Key: "vcs.revision", Value: "ffffffffffffffffffffffffffffffffffffffff"}, {Key: "vcs.time", Value: "2020-01-01T00:00:00Z"}, {Key: "vcs.modified", Value: "true"}}
	for _, c := range []struct {
		name, version, commit, date string
		bi                          *debug.BuildInfo
		want                        string
	}{
		{"a release build", "v1.2.3", rev, "2026-12-02T10:00:00Z", &debug.BuildInfo{GoVersion: "go1.26.8"},
			"hookctl v1.2.3 (commit 1a2b3c4d5e6f, 2026-12-02T10:00:00Z) go1.26.8"},
		{"a release build over what the go command recorded", "v1.2.3", rev, "2026-12-02T10:00:00Z", &debug.BuildInfo{GoVersion: "go1.26.8", Settings: recorded},
			"hookctl v1.2.3 (commit 1a2b3c4d5e6f, 2026-12-02T10:00:00Z, modified) go1.26.8"},
		{"a release build without build information", "v1.2.3", rev, "2026-12-02T10:00:00Z", nil,
			"hookctl v1.2.3 (commit 1a2b3c4d5e6f, 2026-12-02T10:00:00Z)"},
		{"go install of a commit", "devel", "", "", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261202103000-1a2b3c4d5e6f"}},
			"hookctl devel (commit 1a2b3c4d5e6f, 2026-12-02T10:30:00Z) go1.26.8"},
		{"go install of a commit after a tag", "devel", "", "", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.4-0.20261202103000-1a2b3c4d5e6f"}},
			"hookctl devel (commit 1a2b3c4d5e6f, 2026-12-02T10:30:00Z) go1.26.8"},
		{"a checkout", "devel", "", "", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: recorded},
			"hookctl devel (commit ffffffffffff, 2020-01-01T00:00:00Z, modified) go1.26.8"},
		{"nothing recorded", "devel", "", "", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
			"hookctl devel (commit unknown) go1.26.8"},
	} {
		if got := Line(c.version, Stamped(c.bi, c.commit, c.date)); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestReleaseVersion(t *testing.T) {
	for v, want := range map[string]string{
		"":                                     "devel",
		"(devel)":                              "devel",
		"v0.0.0-20261202132030-bd02dad7f972":   "devel",
		"v1.2.4-0.20261202132030-bd02dad7f972": "devel",
		"v1.3.0-rc.1.0.20261202132030-bd02dad7f972": "devel",
		"v0.0.0-20261202132030-bd02dad7f972+dirty":  "devel",
		"v1.2.3":                              "v1.2.3",
		"v1.2.3+dirty":                        "v1.2.3",
		"v1.3.0-rc.1":                         "v1.3.0-rc.1",
		"v1.0.0-beta.20261202132030":          "v1.0.0-beta.20261202132030",
		"v2.0.0-x20261202132030-bd02dad7f972": "v2.0.0-x20261202132030-bd02dad7f972",
		"v0.0.0-2026120213203x-bd02dad7f972":  "v0.0.0-2026120213203x-bd02dad7f972",
	} {
		if got := Release(v); got != want {
			t.Errorf("Release(%q) = %q, want %q", v, got, want)
		}
	}
}
