package lint

import "github.com/hookctl/hookctl/schema"

// invalidUTF8 reports the bytes of invalid UTF-8 in the file's strings.
// The agent's decoder (encoding/json) loads the file and reads each as
// U+FFFD, so a command or a name holding one is not what the file shows:
// a warning, impact misbehaves. One finding per line is enough to find
// them.
func (r *controlCharacter) invalidUTF8(f *File) {
	if f.Config.Root == nil {
		return
	}
	line := 0
	for _, s := range schema.AgentReplaced(f.Config.Src) {
		if s.Start.Line == line {
			continue
		}
		line = s.Start.Line
		n := len(*r.out)
		r.reportSeverity(f, Warning, s, "", "byte 0x%02x is not UTF-8: the agent's decoder reads it as U+FFFD (\uFFFD), so the text it uses differs from the file's; save the file as UTF-8", f.Config.Src[s.Start.Offset])
		if len(*r.out) > n {
			(*r.out)[n].Impact = Misbehaves
		}
	}
}
