package adapter

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// forward renames the agent's arguments to this format's, as the table's
// row says; arguments the row does not name keep their names (a handler
// that looks for them still finds them).
func forward(args []schema.ForeignArg, in map[string]any) map[string]any {
	out := make(map[string]any, len(in))
	used := map[string]bool{}
	for _, a := range args {
		key, v, ok := lookupArg(a, in)
		if !ok {
			continue
		}
		used[key] = true
		switch {
		case a.Format != "":
			s, isStr := v.(string)
			if !isStr {
				continue
			}
			out[a.To] = strings.ReplaceAll(a.Format, "{}", shellcmd.Quote(s))
		case a.List:
			if s, isStr := v.(string); isStr {
				out[a.To] = []any{s}
			} else {
				out[a.To] = v
			}
		case len(a.Elems) > 0:
			list, isList := v.([]any)
			if !isList {
				out[a.To] = v
				continue
			}
			elems := make([]any, len(list))
			for i, el := range list {
				if obj, isObj := el.(map[string]any); isObj {
					elems[i] = forward(a.Elems, obj)
				} else {
					elems[i] = el
				}
			}
			out[a.To] = elems
		default:
			out[a.To] = v
		}
	}
	for k, v := range in {
		if _, taken := out[k]; !used[k] && !taken {
			out[k] = v
		}
	}
	return out
}

// lookupArg finds an argument under its name or one of its other names.
func lookupArg(a schema.ForeignArg, in map[string]any) (string, any, bool) {
	for _, k := range append([]string{a.From}, a.Also...) {
		if v, ok := in[k]; ok {
			return k, v, true
		}
	}
	return "", nil, false
}

// back tells the arguments an overwrite set in the agent's words: the
// agent's original input with each overwritten argument replaced under the
// name the agent used. It reports what it could not tell back: then the
// result is not the call the hooks judged, and is not sent.
func back(args []schema.ForeignArg, orig map[string]any, overwrite map[string]any, agent schema.Agent, tool string) (map[string]any, []string) {
	out := make(map[string]any, len(orig)+len(overwrite))
	for k, v := range orig {
		out[k] = v
	}
	var lost []string
	keys := make([]string, 0, len(overwrite))
	for k := range overwrite {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := overwrite[k]
		a, mapped := argTo(args, k)
		if !mapped {
			// An argument the row does not rename kept its name on the
			// way in; one this format has and the agent's tool does not
			// cannot be told.
			if _, was := orig[k]; was || !isNativeArg(k) {
				out[k] = v
				continue
			}
			lost = append(lost, k)
			continue
		}
		name := a.From
		if key, _, ok := lookupArg(a, orig); ok {
			name = key
		}
		switch {
		case a.Format != "":
			lost = append(lost, k)
			continue
		case a.List:
			if list, ok := v.([]any); ok {
				if len(list) != 1 {
					lost = append(lost, k)
					continue
				}
				v = list[0]
			}
		case len(a.Elems) > 0:
			if list, ok := v.([]any); ok {
				elems := make([]any, len(list))
				for i, el := range list {
					if obj, ok := el.(map[string]any); ok {
						elems[i], _ = back(a.Elems, map[string]any{}, obj, agent, tool)
					} else {
						elems[i] = el
					}
				}
				v = elems
			}
		}
		out[name] = v
	}
	if len(lost) > 0 {
		return out, []string{fmt.Sprintf("the overwrite of %s has no counterpart in %s's %s, so the overwrite is not sent", strings.Join(lost, ", "), agent.Title(), tool)}
	}
	return out, nil
}

// argTo finds the row's argument that becomes this format's name.
func argTo(args []schema.ForeignArg, native string) (schema.ForeignArg, bool) {
	for _, a := range args {
		if a.To == native {
			return a, true
		}
	}
	return schema.ForeignArg{}, false
}

// isNativeArg reports whether a name is an argument of one of this format's
// documented tools.
func isNativeArg(name string) bool {
	for _, t := range schema.Tools {
		for _, n := range t.ArgNames() {
			if n == name {
				return true
			}
		}
	}
	return false
}
