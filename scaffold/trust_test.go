package scaffold

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookctl/hookctl/runtime/trust"
)

// TestCommitRenewsTheTrust: init's writes committed in a new workspace
// are trusted at once, with exactly what was written; without a trust to
// renew (the user's hooks), the writes are committed alone.
func TestCommitRenewsTheTrust(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	for _, sc := range []string{Workspace, User} {
		t.Run(sc, func(t *testing.T) {
			ws, home := t.TempDir(), t.TempDir()
			opts := Options{Answers: Answers{Scope: sc, Template: "notify"}, Dir: ws, Home: home}
			tx, err := Begin(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Close()
			x, err := tx.Load(ConfigPath(sc, ws, home))
			if err != nil {
				t.Fatal(err)
			}
			opts.Fill(x)
			p, err := NewPlan(opts, x)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := CheckTrust(opts, x)
			if err != nil || (tr != nil) != (sc == Workspace) {
				t.Fatalf("trust %+v, %v", tr, err)
			}
			if err := p.Apply(tx); err != nil {
				t.Fatal(err)
			}
			if err := Commit(tx, p, tr, time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)); err != nil {
				t.Fatal(err)
			}
			if b, err := os.ReadFile(p.Config); err != nil || string(b) != string(p.ConfigOut) {
				t.Fatalf("%s holds %q, %v", p.Config, b, err)
			}
			if sc != Workspace {
				return
			}
			if !tr.Renew || tr.Untrusted != "" {
				t.Errorf("trust %+v", tr)
			}
			r, err := trust.NewRenewal(ws)
			if err != nil {
				t.Fatal(err)
			}
			if ok, why, err := r.Trusted(); !ok || err != nil {
				t.Errorf("the workspace is not trusted after init: %s, %v", why, err)
			}
			if err := os.WriteFile(filepath.Join(ws, ".agents", "hooks.json"), []byte("{}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if ok, _, _ := r.Trusted(); ok {
				t.Error("a hooks.json changed after init is still trusted")
			}
		})
	}
}
