// Package agy is what hookctl knows of the agent itself, agy: how to run
// it (bounded, in its own process group, stopped at a timeout), how its
// version reads, its list of hooks in the answer to "/hooks", the lines
// of its log about hooks.json files and what they mean in a file as it
// is now, and its folder trust in ~/.gemini/trustedFolders.json.
//
// None of the agent's outputs is documented, and each version may print
// them otherwise: they are read defensively, and what cannot be read is
// said, never guessed at. docs/agent.md records, version by version, what
// each output was seen to hold, with its source.
package agy
