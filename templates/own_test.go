package templates

import (
	"bytes"
	"testing"
)

// BenchmarkOwn times the question trust asks of every script it reads:
// is it one of init's templates, unchanged? A megabyte of other code, a
// template as init writes it, and the same with one byte changed near its
// end, which shares its start with several templates.
func BenchmarkOwn(b *testing.B) {
	tmpl := bytes.Join(own()[0].parts, []byte("my-hook"))
	changed := bytes.Clone(tmpl)
	changed[len(changed)-2] ^= 1
	for _, c := range []struct {
		name    string
		content []byte
		want    bool
	}{
		{"other-1MiB", bytes.Repeat([]byte("echo hi\n"), 1<<17), false},
		{"template", tmpl, true},
		{"template-changed", changed, false},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, ok := Own(c.content); ok != c.want {
					b.Fatalf("Own %v, want %v", ok, c.want)
				}
			}
		})
	}
}

// A template is its own only with the same name at every placeholder and
// nothing added or left out.
func TestOwnNeedsTheSameNameEverywhere(t *testing.T) {
	var parts [][]byte
	for _, s := range own() {
		if len(s.parts) > 2 {
			parts = s.parts
			break
		}
	}
	if parts == nil {
		t.Fatal("no template names its hook twice")
	}
	whole := bytes.Join(parts, []byte("gate"))
	other := append(append(bytes.Join(parts[:2], []byte("gate")), []byte("gats")...), bytes.Join(parts[2:], []byte("gate"))...)
	for _, c := range []struct {
		name    string
		content []byte
		want    bool
	}{
		{"as written", whole, true},
		{"another name at the second placeholder", other, false},
		{"a byte more", append(bytes.Clone(whole), '\n'), false},
		{"a byte less", whole[:len(whole)-1], false},
	} {
		if _, ok := Own(c.content); ok != c.want {
			t.Errorf("%s: Own %v, want %v", c.name, ok, c.want)
		}
	}
}
