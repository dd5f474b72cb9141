package hooktest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"

	"github.com/hookctl/hookctl/schema"

	"github.com/hookctl/hookctl/internal/lazyre"
)

// Mismatch is one place where the merged answer differs from what a case
// expects.
type Mismatch struct {
	// Path names the place in the answer: "decision", "overwrite.Cwd",
	// "injectSteps[0].userMessage".
	Path string
	// Pos is where the expectation stands in the test file.
	Pos schema.Pos
	// Want is the expected value; Got the answer's, nil when Missing.
	Want, Got any
	// Missing is set when the answer has nothing at Path.
	Missing bool
	// Contains is set for an expectReason: Want is text the reason must
	// contain.
	Contains bool
}

// Compare checks that got, a decoded JSON value, matches want:
//
//   - an object matches an object holding every key it gives, with matching
//     values; other keys of got are not looked at, at any depth. A key
//     expected to be null matches a key that is absent, so {"reason": null}
//     checks that there is no reason;
//   - an array matches an array of the same length whose elements match in
//     order;
//   - numbers match when they are equal as numbers, so 1 matches 1.0 and
//     1e2 matches 100;
//   - strings, booleans and null match the same value.
//
// It returns every mismatch, in the order of want.
func Compare(want *schema.Node, got any) []Mismatch {
	var out []Mismatch
	compare(want, got, nil, &out)
	return out
}

// path is a place in the answer, its text built only for a mismatch.
type path struct {
	parent  *path
	key     string
	index   int
	isIndex bool
}

func (p *path) String() string {
	if p == nil {
		return ""
	}
	if p.isIndex {
		return fmt.Sprintf("%s[%d]", p.parent, p.index)
	}
	return join(p.parent.String(), p.key)
}

// CompareJSON is Compare for two JSON texts.
func CompareJSON(want, got []byte) ([]Mismatch, error) {
	w, _, serr := schema.ParseJSON(want)
	if serr != nil {
		return nil, fmt.Errorf("want: %v", serr)
	}
	g, err := decode(got)
	if err != nil {
		return nil, fmt.Errorf("got: %v", err)
	}
	return Compare(w, g), nil
}

func compare(want *schema.Node, got any, at *path, out *[]Mismatch) {
	bad := func() {
		*out = append(*out, Mismatch{Path: at.String(), Pos: want.Span.Start, Want: want.Interface(), Got: got})
	}
	switch want.Kind {
	case schema.Object:
		g, ok := got.(map[string]any)
		if !ok {
			bad()
			return
		}
		for _, m := range want.Members {
			if want.Get(m.Key).KeySpan != m.KeySpan {
				continue // repeated: the last occurrence counts, as with every JSON decoder
			}
			p := &path{parent: at, key: m.Key}
			v, present := g[m.Key]
			switch {
			case !present && m.Value.Kind == schema.Null:
			case !present:
				*out = append(*out, Mismatch{Path: p.String(), Pos: m.KeySpan.Start, Want: m.Value.Interface(), Missing: true})
			default:
				compare(m.Value, v, p, out)
			}
		}
	case schema.Array:
		g, ok := got.([]any)
		if !ok || len(g) != len(want.Elems) {
			bad()
			return
		}
		for i, e := range want.Elems {
			compare(e, g[i], &path{parent: at, index: i, isIndex: true}, out)
		}
	case schema.Number:
		if !equalNumbers(want.Str, got) {
			bad()
		}
	case schema.String:
		if s, ok := got.(string); !ok || s != want.Str {
			bad()
		}
	case schema.Bool:
		if b, ok := got.(bool); !ok || b != want.Bool {
			bad()
		}
	case schema.Null:
		if got != nil {
			bad()
		}
	}
}

// equalNumbers compares a JSON number's text with a decoded value as
// numbers. Parsing into a big.Float keeps a hostile exponent from costing
// memory, and 512 bits tell apart every pair a test would write.
func equalNumbers(want string, got any) bool {
	var text string
	switch g := got.(type) {
	case json.Number:
		text = g.String()
	case float64:
		text = strconv.FormatFloat(g, 'g', -1, 64)
	default:
		return false
	}
	w, _, err1 := big.ParseFloat(want, 10, 512, big.ToNearestEven)
	g, _, err2 := big.ParseFloat(text, 10, 512, big.ToNearestEven)
	if err1 != nil || err2 != nil {
		return want == text
	}
	return w.Cmp(g) == 0
}

var identifier = lazyre.New(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// join appends a key to a path, quoting keys that are not plain names.
func join(path, key string) string {
	if !identifier().MatchString(key) {
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// decode reads a JSON value with numbers kept as json.Number.
func decode(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// jsonText renders a value compactly for a message, without escaping HTML
// characters, which a command line often holds.
func jsonText(v any) string {
	b, err := schema.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
