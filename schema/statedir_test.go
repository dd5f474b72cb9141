package schema

import (
	"path/filepath"
	"runtime"
	"testing"
)

func TestStateDir(t *testing.T) {
	abs := func(p ...string) string {
		return filepath.Join(append([]string{string(filepath.Separator) + "x"}, p...)...)
	}
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_STATE_HOME": abs("state"), "HOME": abs("home")}, abs("state", "hookctl")},
		{map[string]string{"XDG_STATE_HOME": "relative", "HOME": abs("home")}, abs("home", ".local", "state", "hookctl")},
		{map[string]string{"HOME": abs("home"), "LocalAppData": abs("local")}, abs("home", ".local", "state", "hookctl")},
	} {
		if got, err := StateDir(env(c.env)); err != nil || got != c.want {
			t.Errorf("%v: %q, %v; want %q", c.env, got, err, c.want)
		}
	}
	got, err := StateDir(env(map[string]string{"LocalAppData": abs("local")}))
	if runtime.GOOS == "windows" {
		if err != nil || got != abs("local", "hookctl") {
			t.Errorf("LocalAppData alone: %q, %v", got, err)
		}
	} else if err == nil || err.Error() != "HOME is not set" {
		t.Errorf("no HOME: %q, %v", got, err)
	}
}
