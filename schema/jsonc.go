package schema

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// BoundJSONC reads src as JSON with comments and trailing commas (the
// settings of VS Code, Claude Code, Gemini CLI and Cursor, which hookctl
// edits with hujson) without building anything, and refuses it when its
// arrays and objects nest more than MaxDepth levels or it holds more than
// maxValues values and keys (0: no bound on values). hujson has neither
// bound: it calls itself once a level, so a million nested [ overflowed
// the stack and died with a trace, and its tree costs hundreds of bytes a
// value. The error is at the bracket or the value past the bound; what is
// not valid JSON is left for the parser to report.
func BoundJSONC(src []byte, maxValues int) *SyntaxError {
	depth, values := 0, 0
	// count counts the value at i, and refuses one past the bound.
	count := func(i int) *SyntaxError {
		if values++; maxValues > 0 && values > maxValues {
			return &SyntaxError{Pos: PosAt(src, i), Bound: true,
				Msg: fmt.Sprintf("the file holds more than %d JSON values and keys, more than hookctl reads of such a file, so it is not read further", maxValues)}
		}
		return nil
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ':':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			if n := bytes.IndexByte(src[i:], '\n'); n >= 0 {
				i += n
			} else {
				i = len(src)
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			if n := bytes.Index(src[i+2:], []byte("*/")); n >= 0 {
				i += n + 4
			} else {
				i = len(src)
			}
		case c == '"':
			if err := count(i); err != nil {
				return err
			}
			for i++; i < len(src) && src[i] != '"'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
			i++
		case c == '[' || c == '{':
			if depth++; depth > MaxDepth {
				return &SyntaxError{Pos: PosAt(src, i), Bound: true,
					Msg: fmt.Sprintf("arrays and objects nest more than %d levels deep here, more than any settings file needs, so it is not read further", MaxDepth)}
			}
			if err := count(i); err != nil {
				return err
			}
			i++
		case c == ']' || c == '}':
			depth = max(depth-1, 0)
			i++
		default:
			// A number, a literal, or a mistake the parser will name.
			if err := count(i); err != nil {
				return err
			}
			for i++; i < len(src) && bytes.IndexByte([]byte(" \t\r\n,:[]{}\"/"), src[i]) < 0; i++ {
			}
		}
	}
	return nil
}

// PosAt is the place of the byte offset off in src: its line, and its
// column in characters from the line's start.
func PosAt(src []byte, off int) Pos {
	off = min(max(off, 0), len(src))
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	return Pos{Offset: off, Line: 1 + bytes.Count(src[:off], []byte("\n")), Col: 1 + utf8.RuneCount(src[start:off])}
}
