package shellcmd

import (
	"io"
	"runtime"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// A command's nesting is bounded twice. mvdan.cc/sh parses by recursive
// descent, a few Go calls for each level of nesting, with no bound of its
// own: 50,000 nested subshells, 100 KB, cost it a stack of 270 MB and lint
// 460 MB, and under lint's memory limit (debug.SetMemoryLimit) the
// collector scanned that stack over and over, 27 s. And the readers of the
// tree walk each statement's tree for what it may change, once for every
// statement around it: 2,000 bytes of a|a|a|... took 0.8 s, 10,000 bytes
// three minutes. A command nested deeper than the bounds is not read: it is
// a TooDeepError, and what it runs a gap of code, as for a command too long.

const (
	// maxFrames bounds the parser's calls under Parse: some 180 levels of
	// subshells, if or case, 100 of command substitutions in double
	// quotes, 34 of parentheses in arithmetic, the costliest (29 calls a
	// level, one byte each). The stack is checked each time the parser
	// reads parseChunk more bytes: a check walks the stack, so the bound
	// also bounds what the checks cost.
	maxFrames = 1000
	// parseChunk is the most the parser reads at a time: the stack may
	// grow past maxFrames by as many levels.
	parseChunk = 64
	// maxTreeDepth bounds the depth of the tree the parser built, where
	// lists and pipelines nest without recursion in the parser (a|b|c is
	// ((a|b)|c)): some 100 commands of one pipeline or && list, a
	// subshell or command substitution nested some 60 levels.
	maxTreeDepth = 240
)

// TooDeepError is a command nested deeper than hookctl reads.
type TooDeepError struct{}

func (e *TooDeepError) Error() string {
	return "the command nests its parts (subshells, substitutions, blocks, pipelines, && and || lists, arithmetic) deeper than hookctl reads, which no hook needs"
}

// framePool holds the buffers that runtime.Callers counts frames in.
var framePool = sync.Pool{New: func() any { b := make([]uintptr, maxFrames); return &b }}

// depthReader hands the parser src parseChunk bytes at a time, and fails
// with a TooDeepError once the parser's calls run deeper than maxFrames.
type depthReader struct {
	src    string
	off    int
	frames []uintptr
}

func (r *depthReader) Read(b []byte) (int, error) {
	if r.off >= len(r.src) {
		return 0, io.EOF
	}
	if runtime.Callers(0, r.frames) >= len(r.frames) {
		return 0, &TooDeepError{}
	}
	n := copy(b[:min(len(b), parseChunk)], r.src[r.off:])
	r.off += n
	return n, nil
}

// parseBounded parses src with p, as Parse and StmtsSeq read it through
// read, and fails with a TooDeepError when src nests deeper than the
// bounds.
func parseBounded(src string, read func(io.Reader) (*syntax.File, error)) (*syntax.File, error) {
	frames := framePool.Get().(*[]uintptr)
	defer framePool.Put(frames)
	f, err := read(&depthReader{src: src, frames: *frames})
	if err == nil && f != nil && tooDeep(f) {
		return nil, &TooDeepError{}
	}
	return f, err
}

// tooDeep reports whether n's tree is deeper than maxTreeDepth, walking no
// deeper than that.
func tooDeep(n syntax.Node) bool {
	depth, deep := 0, false
	syntax.Walk(n, func(n syntax.Node) bool {
		switch {
		case n == nil:
			depth--
		case deep || depth >= maxTreeDepth:
			deep = true
			return false
		default:
			depth++
		}
		return true
	})
	return deep
}

// stmtsBefore returns the statements of src that end before line, as p
// reads them one at a time; ok is false when one is nested deeper than the
// bounds, and then none are returned.
func stmtsBefore(p *syntax.Parser, src string, line int) (before []*syntax.Stmt, ok bool) {
	frames := framePool.Get().(*[]uintptr)
	defer framePool.Put(frames)
	done, deep := false, false
	for s, err := range p.StmtsSeq(&depthReader{src: src, frames: *frames}) {
		// The iterator is read to its end: stopping it early makes the
		// parser yield its error after the stop, which panics.
		switch {
		case done || err != nil || s == nil || int(s.End().Line()) >= line:
			done = true
		case tooDeep(s):
			done, deep = true, true
		case unnamedFunc(s) != nil:
			done = true // a syntax error to bash and dash
		default:
			before = append(before, s)
		}
	}
	if deep {
		return nil, false
	}
	return before, true
}
