package schema

import (
	"fmt"
	"strings"
)

// UnknownToolNote says, of a tool name given by hand (hookctl run --tool)
// that is none of the known tools, what was likely meant: the nearest
// known tool, or this agent's name for another agent's tool. The call is
// still made: an MCP server's tools and newer tools have other names, so
// a name that looks like no known one (mcp_files_read) gets no remark. ""
// when there is nothing to say.
func UnknownToolNote(name string) string {
	if IsKnownTool(name) {
		return ""
	}
	msg := ""
	if ft, ok := LookupForeignTool(name); ok && ft.Tool != "" {
		var agents []string
		for _, a := range ft.Agents {
			agents = append(agents, a.Title())
		}
		who := "another agent's"
		if len(agents) > 0 {
			who = strings.Join(agents, " and ") + "'s"
		}
		msg = fmt.Sprintf("%q is %s tool, not this agent's: did you mean %q?", name, who, ft.Tool)
	} else if near := Nearest(name, ToolNames()); near != "" {
		msg = fmt.Sprintf("%q is not a known tool: did you mean %q?", name, near)
	}
	if msg == "" {
		return ""
	}
	return msg + " Going on with it: an MCP server's or a newer tool may have that name."
}
