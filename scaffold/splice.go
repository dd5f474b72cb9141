package scaffold

import (
	"bytes"

	"github.com/tailscale/hujson"
)

// The splices below edit JSON with comments (and plain JSON) in place,
// from the offsets of a tree that hujson.Parse made of the same bytes:
// every byte outside the edit is kept, and what is added follows the file's
// own indentation and spacing, as AddHooks does.

// InsertMember returns src with the member key: value (compact JSON) added
// at the end of the object obj.
func InsertMember(src []byte, obj *hujson.Value, key string, value []byte) []byte {
	return insert(src, hujsonContainer(src, obj), []item{{key: key, value: value}})
}

// AppendElement returns src with value (compact JSON) added at the end of
// the array arr.
func AppendElement(src []byte, arr *hujson.Value, value []byte) []byte {
	return insert(src, hujsonContainer(src, arr), []item{{value: value}})
}

// RemoveEntry returns src without the i-th entry (member or element) of the
// object or array c, and without the comma that separated it. The comments
// around other entries stay; an object or array left empty becomes {} or [].
func RemoveEntry(src []byte, c *hujson.Value, i int) []byte {
	ct := hujsonContainer(src, c)
	if i < 0 || i >= len(ct.entries) {
		return src
	}
	cur := ct.entries[i]
	cut := func(from, to int) []byte {
		out := make([]byte, 0, len(src)-(to-from))
		out = append(out, src[:from]...)
		return append(out, src[to:]...)
	}
	switch {
	case i+1 < len(ct.entries):
		// The entry, its comma and the space up to the next entry: the next
		// one takes its place, with its indentation.
		return cut(cur.start, ct.entries[i+1].start)
	case i > 0:
		prev := ct.entries[i-1]
		comma := nextComma(src, prev.end, cur.start)
		end := cur.end
		// A trailing comma after the last entry (JSON with comments allows
		// one) goes with it, and the previous entry keeps its own.
		if t := nextComma(src, cur.end, ct.close); t >= 0 {
			end, comma = t+1, -1
		}
		start := ownLine(src, cur.start, prev.end)
		if start == cur.start && comma >= 0 && len(bytes.TrimSpace(src[comma+1:cur.start])) == 0 {
			// On one line with the previous entry: from its comma on.
			start, comma = comma, -1
		}
		out := cut(start, end)
		if comma >= 0 {
			out = append(out[:comma:comma], out[comma+1:]...)
		}
		return out
	default:
		// The only entry: the brackets close up unless comments stay inside.
		inner := bytes.TrimSpace(append(append([]byte(nil), src[ct.open+1:cur.start]...), src[cur.end:ct.close]...))
		if t := nextComma(src, cur.end, ct.close); t >= 0 {
			inner = bytes.TrimSpace(append(append([]byte(nil), src[ct.open+1:cur.start]...), src[t+1:ct.close]...))
		}
		if len(inner) == 0 {
			return cut(ct.open+1, ct.close)
		}
		end := cur.end
		if t := nextComma(src, cur.end, ct.close); t >= 0 {
			end = t + 1
		}
		return cut(ownLine(src, cur.start, ct.open), end)
	}
}

// ownLine returns the offset of the line ending ("\n" or "\r\n") that
// starts the line of the entry at start when nothing after after stands
// before it on that line, so that the line goes whole; else start.
func ownLine(src []byte, start, after int) int {
	if nl := bytes.LastIndexByte(src[:start], '\n'); nl > after && len(bytes.TrimSpace(src[nl:start])) == 0 {
		if nl-1 > after && src[nl-1] == '\r' {
			return nl - 1
		}
		return nl
	}
	return start
}

// nextComma returns the offset of the first comma in src[from:to] outside
// comments, -1 when there is none.
func nextComma(src []byte, from, to int) int {
	for i := from; i < to; i++ {
		switch {
		case src[i] == ',':
			return i
		case src[i] == '/' && i+1 < to && src[i+1] == '/':
			for i < to && src[i] != '\n' {
				i++
			}
		case src[i] == '/' && i+1 < to && src[i+1] == '*':
			end := bytes.Index(src[i+2:to], []byte("*/"))
			if end < 0 {
				return -1
			}
			i += end + 3
		}
	}
	return -1
}
