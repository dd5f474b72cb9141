package lsp

// While a file is typed it is rarely valid JSON, so completion and hover do
// not parse it: a forgiving scan from the start of the text to the cursor
// tells which objects and arrays hold the cursor, under which keys, and
// whether the cursor is in a key or a value.

// frame is an object or array that holds the cursor.
type frame struct {
	// array is set for an array, else the frame is an object.
	array bool
	// key is the key under which the frame stands in its parent object,
	// "" in an array or at the top.
	key string
	// lastKey is, in an object, the last key read.
	lastKey string
	// expectKey is set, in an object, where a key may come next.
	expectKey bool
}

// cursor is where a position stands in the structure of the text.
type cursor struct {
	// stack holds the containers from the outermost to the innermost.
	stack []frame
	// inString is set when the cursor is inside a string; from is then the
	// offset of its opening quote, and to the offset of its closing quote
	// (or where the line ends when it has none).
	inString bool
	from, to int
	// isKey is set when the cursor is at a key of an object (in a key
	// string, or where a key may be written).
	isKey bool
	// key is, for a value, the key it is the value of.
	key string
	// value is the string's decoded content from its start up to the
	// cursor, when the cursor is in a string.
	value string
}

// path returns the keys of the containers that hold the cursor, one per
// frame ("" for a frame in an array).
func (c *cursor) path() []string {
	p := make([]string, len(c.stack))
	for i, f := range c.stack {
		p[i] = f.key
	}
	return p
}

// scan finds the cursor at off in text.
func scan(text []byte, off int) cursor {
	var c cursor
	off = max(0, min(off, len(text)))
	// pending is the key of the value that comes next in the innermost
	// object.
	for i := 0; i < off; i++ {
		switch ch := text[i]; ch {
		case '{', '[':
			f := frame{array: ch == '[', expectKey: ch == '{'}
			if n := len(c.stack); n > 0 && !c.stack[n-1].array {
				f.key = c.stack[n-1].lastKey
			}
			c.stack = append(c.stack, f)
		case '}', ']':
			if n := len(c.stack); n > 0 {
				c.stack = c.stack[:n-1]
				if n > 1 && !c.stack[n-2].array {
					c.stack[n-2].expectKey = false
				}
			}
		case ',':
			if n := len(c.stack); n > 0 && !c.stack[n-1].array {
				c.stack[n-1].expectKey = true
			}
		case ':':
			if n := len(c.stack); n > 0 && !c.stack[n-1].array {
				c.stack[n-1].expectKey = false
			}
		case '"':
			start := i
			s, end, closed := readString(text, i, off)
			if !closed {
				// The cursor is inside this string.
				c.inString = true
				c.from = start
				c.value = s
				c.to = stringEnd(text, start)
				c.finish()
				return c
			}
			if n := len(c.stack); n > 0 && !c.stack[n-1].array && c.stack[n-1].expectKey {
				c.stack[n-1].lastKey = s
				c.stack[n-1].expectKey = false
			}
			i = end - 1
		}
	}
	c.finish()
	return c
}

func (c *cursor) finish() {
	n := len(c.stack)
	if n == 0 {
		return
	}
	top := c.stack[n-1]
	if top.array {
		return
	}
	c.isKey = top.expectKey
	if !c.isKey {
		c.key = top.lastKey
	}
}

// readString reads the string whose opening quote is at start, stopping at
// limit. It returns the decoded text, the offset after the closing quote,
// and whether the string closed before limit. A line break ends an
// unclosed string, as editors show it.
func readString(text []byte, start, limit int) (s string, end int, closed bool) {
	var b []byte
	for i := start + 1; i < len(text); i++ {
		if i >= limit {
			return string(b), i, false
		}
		switch ch := text[i]; ch {
		case '"':
			return string(b), i + 1, true
		case '\n', '\r':
			// An unclosed string: JSON forbids a raw line break in one.
			return string(b), i, true
		case '\\':
			if i+1 < len(text) && i+1 < limit {
				i++
				b = append(b, unescape(text[i]))
				continue
			}
			return string(b), i, false
		default:
			b = append(b, ch)
		}
	}
	return string(b), len(text), limit > len(text)
}

func unescape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case 'r':
		return '\r'
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	}
	return c
}

// stringEnd returns the offset of the closing quote of the string that
// opens at start, or where its line ends when it has none.
func stringEnd(text []byte, start int) int {
	for i := start + 1; i < len(text); i++ {
		switch text[i] {
		case '\\':
			i++
		case '"', '\n', '\r':
			return i
		}
	}
	return len(text)
}
