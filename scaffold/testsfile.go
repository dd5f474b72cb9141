package scaffold

import (
	"fmt"

	"github.com/hookctl/hookctl/schema"
)

// AddTestCase returns a hooks.test.json's src with the case appended to its
// "tests" array (created when missing), keeping every other byte as
// AddHooks does. It returns src unchanged and false when a case of that
// name is already there.
func AddTestCase(src []byte, c schema.TestCase) ([]byte, bool, error) {
	root, _, serr := schema.ParseJSON(src)
	if serr != nil {
		return nil, false, serr
	}
	if root.Kind != schema.Object {
		return nil, false, ErrNotObject
	}
	value, err := schema.Marshal(c)
	if err != nil {
		return nil, false, err
	}
	m := root.Get("tests")
	if m == nil {
		return insert(src, objectOf(root), []item{{key: "tests", value: append(append([]byte("["), value...), ']')}}), true, nil
	}
	if m.Value.Kind != schema.Array {
		return nil, false, fmt.Errorf("%d:%d: \"tests\" is %s, not an array of cases", m.Value.Span.Start.Line, m.Value.Span.Start.Col, m.Value.Describe())
	}
	for _, e := range m.Value.Elems {
		if n := e.Get("name"); n != nil && n.Value.Kind == schema.String && n.Value.Str == c.Name {
			return src, false, nil
		}
	}
	return insert(src, objectOf(m.Value), []item{{value: value}}), true, nil
}
