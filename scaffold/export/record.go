package export

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/hookctl/hookctl/schema"
)

// Record is what export remembers of one settings file between an export
// and its removal: the members it created there (Result.Made), so that
// Remove takes out those and leaves a "hooks": {} or an empty event list
// the user wrote. The bytes alone cannot tell the two apart: an empty
// "hooks" object the user put last in the file, filled by export, is the
// very text export writes when it creates one. A record lives outside the
// workspace, in the user's state folder, one small file per settings file.
type Record struct {
	// File is the settings file's real path.
	File string `json:"file"`
	// Made are the JSON pointers of the members export created.
	Made []string `json:"made"`
	// Filled is the whitespace that stood inside the empty objects and
	// arrays of the user's that export filled, by JSON pointer.
	Filled map[string]string `json:"filled,omitempty"`
}

// maxRecord bounds a record read: a few pointers, far below this.
const maxRecord = 64 << 10

// RecordPath returns where the record of the settings file whose real
// path is real is kept: $XDG_STATE_HOME/hookctl/export/HASH.json, else
// ~/.local/state/hookctl/export/HASH.json, HASH naming the path. A relative
// XDG_STATE_HOME is ignored, as the XDG base directory specification asks.
func RecordPath(getenv func(string) string, real string) (string, error) {
	dir, err := schema.StateDir(getenv)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(real))
	return filepath.Join(dir, "export", hex.EncodeToString(sum[:16])+".json"), nil
}

// LoadRecord reads the record at path of the settings file real. It
// returns nil and no error when there is none.
func LoadRecord(path, real string) (*Record, error) {
	b, err := schema.ReadFile(path, maxRecord)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the record %s %s", path, schema.ReadReason(err))
	}
	var r Record
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil || r.File == "" {
		return nil, fmt.Errorf("the record %s is not one hookctl export wrote: delete it", path)
	}
	if r.File != real {
		return nil, nil // another file's, under the same name: not this one's
	}
	if r.Made == nil {
		r.Made = []string{}
	}
	return &r, nil
}

// Save writes the record at path, atomically, in a folder only the user
// can read.
func (r *Record) Save(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return schema.WriteFileAtomic(path, append(b, '\n'), 0o600)
}

// DeleteRecord removes the record at path; one that is not there is no
// error.
func DeleteRecord(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// NextRecord returns the record of file after the export r: what r
// created and filled, and what an earlier export did (prev, nil when there
// is no record) that is still in the file and still holds that export's
// work. Once none of export's entries is left in the file, an earlier
// record is out of date (the user took them out by hand and may have
// written the same members since) and is forgotten.
func NextRecord(a schema.Agent, prev *Record, r *Result, file string) *Record {
	next := r.Record(file)
	if prev == nil || r.Old == nil {
		return next
	}
	if gone, err := Remove(a, r.Old, nil); err != nil || len(gone.Removed) == 0 {
		return next
	}
	for _, p := range prev.Made {
		if !slices.Contains(next.Made, p) && lookup(r.Old, p) != nil {
			next.Made = append(next.Made, p)
		}
	}
	for p, ws := range prev.Filled {
		if _, ok := next.Filled[p]; !ok && lookup(r.Old, p) != nil {
			if next.Filled == nil {
				next.Filled = map[string]string{}
			}
			next.Filled[p] = ws
		}
	}
	return next
}

// lookup returns the value that the JSON pointer ptr ("" for the top
// level) names in src, nil when there is none.
func lookup(src []byte, ptr string) *hujson.Value {
	if schema.BoundJSONC(src, schema.MaxOtherValues) != nil {
		return nil
	}
	v, err := hujson.Parse(src)
	if err != nil || ptr != "" && !strings.HasPrefix(ptr, "/") {
		return nil
	}
	cur := &v
	if ptr == "" {
		return cur
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		key := strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		obj, ok := cur.Value.(*hujson.Object)
		if !ok {
			return nil
		}
		var next *hujson.Value
		for i := range obj.Members {
			if name(obj.Members[i].Name) == key {
				next = &obj.Members[i].Value
			}
		}
		if next == nil {
			return nil
		}
		cur = next
	}
	return cur
}
