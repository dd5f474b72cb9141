package shellcmd

import "mvdan.cc/sh/v3/syntax"

// A program word that is not literal is named one of two ways. One whose
// value is the user's (a variable the code never assigns, taken from the
// environment: "$JQ", "${JQ:-jq}") runs what the user chose, and only a
// hooks.json command names it. One whose value the code computes as it
// runs (a command's output, a line read, a loop's variable, an argument a
// caller passes, a pattern the workspace's files match) may run any file
// of the workspace, and a script names it at its line as code no
// fingerprint holds.

// How a word's value is decided, for a word that is not literal.
const (
	// chosenByUser: only from variables the code never assigns.
	chosenByUser uint8 = iota
	// computedValue: from a value the code computes when it runs.
	computedValue
	// matchedFiles: from a pattern the shell matches against files.
	matchedFiles
	// sourcedVar: from a variable a file the script sources may assign
	// (Command.sourcedDecide).
	sourcedVar
)

// assignedNames returns the variables code may assign anywhere ("*" for a
// name known only when it runs): for a straight assignment, in a loop, by
// read, for, getopts, printf -v, arithmetic.
func assignedNames(stmts []*syntax.Stmt) map[string]bool {
	out := map[string]bool{}
	for _, s := range stmts {
		syntax.Walk(s, func(n syntax.Node) bool {
			for _, name := range assignedBy(n, nil) {
				out[name] = true
			}
			if a, ok := n.(*syntax.Assign); ok && a.Name != nil {
				out[a.Name.Value] = true // straight ones too
			}
			return true
		})
	}
	return out
}

// withNames returns the union of two sets of names.
func withNames(a, b map[string]bool) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// decidedBy says how the value of a word that is not literal is decided,
// the code assigning the variables in assigned, and, for one the user
// decides, the variables it takes that value from (Word.vars).
func decidedBy(x *syntax.Word, assigned map[string]bool) (uint8, string) {
	how := chosenByUser
	vars := ""
	mark := func(h uint8) {
		if h > how {
			how = h
		}
	}
	var parts func(ps []syntax.WordPart, quoted bool)
	param := func(p *syntax.ParamExp) {
		switch {
		case p.Param == nil || p.Excl || p.NestedParam != nil || p.Index != nil:
			mark(computedValue) // ${!name}, ${a[i]}
			return
		}
		name := p.Param.Value
		switch {
		case name == "0", name == "#", name == "?", name == "$", name == "!", name == "-":
			// the script's path, numbers, the shell's flags
		case name == "@", name == "*", isNumber(name):
			mark(computedValue) // what a caller passes
		case assigned[name] || assigned["*"] || shellSets(name):
			mark(computedValue)
		default:
			vars += name + " "
		}
		if p.Exp != nil && p.Exp.Word != nil {
			parts(p.Exp.Word.Parts, true)
		}
		if p.Repl != nil {
			for _, w := range []*syntax.Word{p.Repl.Orig, p.Repl.With} {
				if w != nil {
					parts(w.Parts, true)
				}
			}
		}
		if p.Slice != nil {
			mark(computedValue)
		}
	}
	parts = func(ps []syntax.WordPart, quoted bool) {
		for _, p := range ps {
			switch p := p.(type) {
			case *syntax.Lit:
				if !quoted && (isGlob(p.Value) || braceExpands(p.Value)) {
					mark(matchedFiles)
				}
			case *syntax.SglQuoted:
				if _, ok := ansiC(p.Value); p.Dollar && !ok {
					mark(computedValue) // $'\cX': escapes not read
				}
			case *syntax.DblQuoted:
				parts(p.Parts, true)
			case *syntax.ParamExp:
				param(p)
			case *syntax.ExtGlob, *syntax.BraceExp:
				mark(matchedFiles)
			default:
				// $(...), `...`, <(...), $((...)), $'...' built from
				// what runs.
				mark(computedValue)
			}
		}
	}
	parts(x.Parts, false)
	if how != chosenByUser {
		vars = ""
	}
	return how, vars
}

// Argv reads a program and its arguments as code in another language hands
// them to the system (Python's subprocess.run([...]), node's
// execFileSync(...)), run in the folder dir ("" when not known): as Parse
// reads a command of one call, no shell between. Words that are not
// literal are what that code computes. A git among them whose folder is
// known is a Repo; one whose folder is not is no gap: a program such code
// starts by its name is not followed (docs/trust.md).
func Argv(args []Word, dir string) *Command {
	c := &Command{}
	if len(args) == 0 {
		return c
	}
	call := &Call{Args: args, Dir: dir, argv: true}
	c.Calls = append(c.Calls, call)
	if i, code := shellCode(args); i >= 0 && !code.Lit {
		c.Gaps = append(c.Gaps, Gap{Word: code, Why: "hands the shell code built only when the command runs", Code: true})
	}
	c.nested(call, 0, dir)
	return c
}
