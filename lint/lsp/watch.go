package lsp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// A script that a hooks.json names can appear, vanish or change mode
// without the hooks.json changing, and lint's findings about it change
// with it (script-not-found, script-not-executable, script-shebang,
// unsafe-permissions). Two things tell the server:
//
//   - the client's file watcher: when the client can register watchers
//     dynamically, the server asks for every file of the workspace, and
//     lints again each open file that names a file it reports;
//   - a poll, on every client: every Options.Poll the server stats the
//     files the open documents name (a few calls, never a walk of the
//     workspace) and lints again a document when one changed. It serves
//     clients that cannot watch files, and changes that a watcher does not
//     report, such as a change of mode.

// watchAll is the WatchKind of creations, changes and deletions.
const watchAll = 1 | 2 | 4

// registerWatchers asks the client to watch the workspace's files, when
// it can. The call waits for the client's answer, which the reader
// goroutine reads, so it is made from its own goroutine.
func (s *server) registerWatchers() {
	s.mu.Lock()
	watch := s.watchFiles
	s.mu.Unlock()
	if !watch {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
		defer cancel()
		p := registrationParams{Registrations: []registration{{
			ID:     "hookctl-scripts",
			Method: "workspace/didChangeWatchedFiles",
			RegisterOptions: didChangeWatchedFilesRegistrationOptions{
				Watchers: []fileSystemWatcher{{GlobPattern: "**/*", Kind: watchAll}},
			},
		}}}
		if err := s.conn.Call(ctx, "client/registerCapability", p, nil); err != nil && !errors.Is(err, jsonrpc2.ErrClosed) {
			s.log.Printf("the client did not register the file watcher (%v): changes to scripts are found by polling", err)
		}
	}()
}

// filesChanged lints again every open document that names a file the
// client reports.
func (s *server) filesChanged(p didChangeWatchedFilesParams) error {
	changed := map[string]bool{}
	for _, c := range p.Changes {
		if path := uriPath(c.URI); path != "" {
			changed[path] = true
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for uri, d := range s.docs {
		for path := range d.stamps {
			if changed[path] {
				s.schedule(uri, d, 0)
				break
			}
		}
	}
	return nil
}

// poll looks at the named files every Options.Poll until ctx ends.
func (s *server) poll(ctx context.Context) {
	t := time.NewTicker(s.opts.Poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.conn.DisconnectNotify():
			return
		case <-t.C:
			s.pollOnce()
		}
	}
}

func (s *server) pollOnce() {
	type watched struct {
		uri    string
		d      *docState
		stamps map[string]string
	}
	s.mu.Lock()
	var ws []watched
	for uri, d := range s.docs {
		if len(d.stamps) > 0 && !d.linting {
			ws = append(ws, watched{uri, d, d.stamps})
		}
	}
	s.mu.Unlock()
	// The disk is read without the lock, so that requests are not held up
	// by a slow file system.
	var stale []watched
	for _, w := range ws {
		for path, was := range w.stamps {
			if stamp(path) != was {
				stale = append(stale, w)
				break
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, w := range stale {
		if s.docs[w.uri] == w.d {
			s.schedule(w.uri, w.d, 0)
		}
	}
}

// stamp sums up what lint may look at in a file: whether it exists, its
// mode, size and modification time.
func stamp(path string) string {
	info, err := os.Stat(path)
	if err != nil {
		return stampOf(nil)
	}
	return stampOf(info)
}

func stampOf(info fs.FileInfo) string {
	if info == nil {
		return "missing"
	}
	return fmt.Sprintf("%v %d %d", info.Mode(), info.Size(), info.ModTime().UnixNano())
}
