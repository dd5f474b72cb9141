package export

import (
	"fmt"
	"slices"

	"github.com/tailscale/hujson"

	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/scaffold/convert"
	"github.com/hookctl/hookctl/schema"
)

// Imported is an entry of the agent's settings that the workspace's
// hooks.json holds as imported: exported too, the agent would run it
// twice, once itself and once through hookctl run --from.
type Imported struct {
	// Event is the agent's event the entry stands under, Native the event
	// of this format its hook runs on.
	Event  string
	Native schema.Event
	// Line and Col are where the entry is in the settings.
	Line, Col int
	// Hook is the hook's name in hooks.json, HookLine its line there.
	Hook     string
	HookLine int
	// Whole says that every handler of the entry was carried over, so
	// that taking it out loses nothing the hooks.json lacks.
	Whole bool

	// entry is the entry's index in the event's list; handler the
	// handler's in the entry's "hooks", -1 for the whole entry.
	entry, handler int
}

// FindImported returns the entries of the agent's settings (old, at path)
// that the hooks.json target (of the workspace root) holds as an import
// of them wrote them, with or without hookctl adapt. answer is what
// import translates a fixed answer with. A relative path starts from root.
// Settings that hold no hooks, or that cannot be read as the agent's, hold
// none.
func FindImported(a schema.Agent, path string, old []byte, target, root string, answer func(schema.Agent, string, []byte) ([]byte, []string, bool)) ([]Imported, error) {
	if old == nil {
		return nil, nil
	}
	src, err := convert.Parse(root, path, old, a)
	if err != nil || src.Shape != convert.Wrapped {
		return nil, nil
	}
	tree, err := parse(old)
	if err != nil {
		return nil, err
	}
	var out []Imported
	seen := map[int]bool{}
	for _, adapt := range []bool{true, false} {
		res := convert.Convert(src, convert.Options{Target: target, Root: root, Adapt: adapt, Answer: answer})
		held, err := res.Held(target)
		if err != nil {
			return nil, err
		}
		for i, h := range res.Hooks {
			pos, ok := held[i]
			if !ok || seen[h.Pos.Offset] {
				continue
			}
			im, ok := locate(old, tree, h.Pos.Offset)
			if !ok {
				continue
			}
			seen[h.Pos.Offset] = true
			for _, e := range schema.Events {
				if h.Def.HasEvent(e) {
					im.Native = e
				}
			}
			im.Hook, im.HookLine = h.Name, pos.Line
			im.Whole = im.handler >= 0 || carried(h.Def) == handlersOf(old, tree, im)
			out = append(out, im)
		}
	}
	slices.SortFunc(out, func(x, y Imported) int { return x.Line*1000000 + x.Col - (y.Line*1000000 + y.Col) })
	return out, nil
}

// locate finds the entry (or the handler of an entry) of the settings that
// starts at off.
func locate(src []byte, tree *hujson.Value, off int) (Imported, bool) {
	hooks, _ := member(src, tree, "hooks", "an object of events")
	if hooks == nil {
		return Imported{}, false
	}
	for _, m := range hooks.Value.(*hujson.Object).Members {
		arr, ok := m.Value.Value.(*hujson.Array)
		if !ok {
			continue
		}
		for i := range arr.Elements {
			el := &arr.Elements[i]
			im := Imported{Event: name(m.Name), entry: i, handler: -1}
			if el.StartOffset == off {
				im.Line, im.Col = position(src, off)
				return im, true
			}
			obj, ok := el.Value.(*hujson.Object)
			if !ok {
				continue
			}
			for _, gm := range obj.Members {
				hs, ok := gm.Value.Value.(*hujson.Array)
				if name(gm.Name) != "hooks" || !ok {
					continue
				}
				for j := range hs.Elements {
					if hs.Elements[j].StartOffset == off {
						im.handler = j
						im.Line, im.Col = position(src, off)
						return im, true
					}
				}
			}
		}
	}
	return Imported{}, false
}

// carried counts the handlers of a converted hook.
func carried(d *schema.HookDefinition) int {
	n := 0
	for range d.AllHandlers() {
		n++
	}
	return n
}

// handlersOf counts the handlers of an entry of the settings: those of a
// group, or the entry itself (Cursor's).
func handlersOf(src []byte, tree *hujson.Value, im Imported) int {
	hooks, _ := member(src, tree, "hooks", "an object of events")
	list, _ := member(src, hooks, im.Event, "an array of entries")
	el := &list.Value.(*hujson.Array).Elements[im.entry]
	obj, ok := el.Value.(*hujson.Object)
	if !ok {
		return 1
	}
	for _, m := range obj.Members {
		if name(m.Name) == "hooks" {
			return entries(&m.Value)
		}
	}
	return 1
}

// RemoveImported takes the imported entries (or handlers) out of the
// settings, from the last to the first so that the offsets of the others
// hold, and the event lists they leave empty but those of keep, which
// export fills again in their place.
func RemoveImported(src []byte, ims []Imported, keep map[string]bool) ([]byte, error) {
	order := slices.Clone(ims)
	slices.SortFunc(order, func(x, y Imported) int { return (y.Line*1000000 + y.Col) - (x.Line*1000000 + x.Col) })
	for _, im := range order {
		next, err := removeImported(src, im, keep[im.Event])
		if err != nil {
			return nil, err
		}
		src = next
	}
	return src, nil
}

func removeImported(src []byte, im Imported, keepList bool) ([]byte, error) {
	tree, err := parse(src)
	if err != nil {
		return nil, err
	}
	hooks, err := member(src, tree, "hooks", "an object of events")
	if err != nil || hooks == nil {
		return nil, fmt.Errorf("the settings have no hooks object any more")
	}
	list, err := member(src, hooks, im.Event, "an array of entries")
	if err != nil || list == nil {
		return nil, fmt.Errorf("the settings have no %s list any more", im.Event)
	}
	arr := list.Value.(*hujson.Array)
	if im.handler >= 0 {
		// One handler of a group that holds others: only it goes.
		obj := arr.Elements[im.entry].Value.(*hujson.Object)
		for k := range obj.Members {
			if name(obj.Members[k].Name) == "hooks" && entries(&obj.Members[k].Value) > 1 {
				return scaffold.RemoveEntry(src, &obj.Members[k].Value, im.handler), nil
			}
		}
	}
	if len(arr.Elements) > 1 || keepList {
		return scaffold.RemoveEntry(src, list, im.entry), nil
	}
	return scaffold.RemoveEntry(src, hooks, index(hooks, im.Event)), nil
}
