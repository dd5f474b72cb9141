package schema_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/hookctl/hookctl/schema/internal/schemagen"
)

// TestEmbeddedSchemasAreCurrent regenerates the schemas from the Go types
// and compares them with the files that package schema embeds.
func TestEmbeddedSchemasAreCurrent(t *testing.T) {
	files, err := schemagen.Files(".")
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range files {
		want, err := os.ReadFile(filepath.FromSlash(name))
		if err != nil {
			t.Errorf("schema/%s: %v: run go generate ./schema", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("schema/%s is out of date with the Go types: run go generate ./schema", name)
		}
	}
	// A file left over from a type or event that no longer exists is
	// embedded all the same.
	entries, err := os.ReadDir("generated")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, ok := files["generated/"+e.Name()]; !ok {
			t.Errorf("schema/generated/%s is not generated any more: delete it and run go generate ./schema", e.Name())
		}
	}
}

func TestGeneratedSchemasDeterministic(t *testing.T) {
	first, err := schemagen.Files(".")
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		again, err := schemagen.Files(".")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(first, again) {
			names := slices.Sorted(func(yield func(string) bool) {
				for k := range first {
					if !bytes.Equal(first[k], again[k]) && !yield(k) {
						return
					}
				}
			})
			t.Fatalf("two runs gave different bytes: %v", names)
		}
	}
}
