package schema

import (
	"fmt"
	"path/filepath"
)

// Config is one hooks.json as loaded: its bytes, its tree with positions,
// the hooks it defines, and whatever keeps parts of it from running.
type Config struct {
	// Path is the file as named; Dir is the folder that holds it, where its
	// handlers run.
	Path string
	Dir  string
	// Src is the file's content.
	Src []byte
	// Root is the parsed tree, nil when the file is not valid JSON.
	Root *Node
	// Syntax is the first syntax error, nil when the file is valid JSON.
	Syntax *SyntaxError
	// SyntaxErrors are, in a Config that ParseRecovering read, every
	// syntax mistake its reading met, Syntax first (the one a strict
	// reading stops at); nil in one Parse read.
	SyntaxErrors []*SyntaxError
	// Duplicates are the keys repeated within one object.
	Duplicates []Duplicate
	// File holds the hooks that can run, in file order.
	File *File
	// Problems are the parts that do not follow the format.
	Problems []Problem
}

// Load reads and parses the hooks.json at path. Its error is only for a
// file that cannot be read (a *NotRegularError, a *TooLargeError past
// MaxFileSize, or os.Open's); a file that is not valid JSON or breaks the
// format loads with Syntax or Problems set.
func Load(path string) (*Config, error) {
	src, err := ReadFile(path, MaxFileSize)
	if err != nil {
		return nil, err
	}
	return Parse(path, src), nil
}

// Parse parses src as the hooks.json at path; a file of more than MaxValues
// values is a syntax error at the first value past the bound.
func Parse(path string, src []byte) *Config {
	return parseConfig(path, src, false)
}

// ParseRecovering is Parse for a reader that shows every mistake of a
// file at once (lint): a file that is not valid JSON is read on past the
// mistakes that leave no doubt about what was meant (comments, trailing
// and missing commas, single quotes, keys without quotes, ...), and
// SyntaxErrors lists them all. When none of them stopped the reading,
// Root, Duplicates, File and Problems are those of the text as read, every
// position in the file's own bytes: what the file holds once its syntax is
// corrected. The agent loads none of such a file, so nothing may run
// from it.
func ParseRecovering(path string, src []byte) *Config {
	return parseConfig(path, src, true)
}

func parseConfig(path string, src []byte, recovering bool) *Config {
	c := &Config{Path: path, Dir: dirOf(path), Src: src, File: &File{Path: path}}
	c.File.Dir = c.Dir
	root, dups, errs := parseJSON(src, MaxValues, recovering)
	if len(errs) > 0 {
		c.Syntax = errs[0]
		if recovering {
			c.SyntaxErrors = errs
		}
	}
	if root == nil {
		return c
	}
	c.Root, c.Duplicates = root, dups
	f, probs := Decode(c.Root)
	f.Path, f.Dir = c.Path, c.Dir
	c.File, c.Problems = f, probs
	return c
}

// dirOf returns the absolute folder that holds path, or its plain folder
// when the working folder cannot be known.
func dirOf(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return filepath.Dir(abs)
	}
	return filepath.Dir(path)
}

// Usable reports whether the file could be understood at all: it is valid
// JSON and its top level is an object.
func (c *Config) Usable() bool {
	if c.Syntax != nil {
		return false
	}
	for _, p := range c.Problems {
		if p.Dropped == "file" {
			return false
		}
	}
	return true
}

// Where formats a position in the file as FILE:LINE:COL.
func (c *Config) Where(p Pos) string { return fmt.Sprintf("%s:%d:%d", c.Path, p.Line, p.Col) }
