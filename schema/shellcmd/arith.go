package shellcmd

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// bash evaluates the text of a variable named in arithmetic as an
// arithmetic expression in its turn, and runs the command substitutions of
// an array subscript in it: with x='a[$(cmd)]', (( x )), $(( x )),
// $(( $x + 1 )), let x and [[ $x -eq 1 ]] all run cmd (bash 5.2; dash
// takes a variable's text as a number only, and test's -eq too). In a
// script bash runs for certain, arithmetic on a variable that may hold
// other text than a number (read from a file, a command's output, the
// environment) is named at its line; one the script only ever sets to a
// number or to arithmetic's result is not.

// numericVars returns the variables that every assignment in f sets to a
// number: a literal integer, $(( ... )), or arithmetic's own (( i++ )),
// let, for (( ... )).
func numericVars(f *syntax.File) map[string]bool {
	numeric := map[string]bool{}
	bad := map[string]bool{}
	inArith := 0
	var visit func(n syntax.Node) bool
	visit = func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ArithmCmd, *syntax.ArithmExp, *syntax.LetClause, *syntax.CStyleLoop:
			// Names assigned inside hold arithmetic's result.
			inArith++
			syntax.Walk(n, func(m syntax.Node) bool {
				if m == n {
					return true
				}
				return visit(m)
			})
			inArith--
			return false
		case *syntax.Assign:
			if n.Name != nil && inArith == 0 {
				if numberValue(n) {
					numeric[n.Name.Value] = true
				} else {
					bad[n.Name.Value] = true
				}
			}
		}
		if inArith == 0 {
			if _, ok := n.(*syntax.Assign); !ok {
				for _, name := range assignedBy(n, nil) {
					bad[name] = true
				}
			}
		} else {
			for _, name := range assignedBy(n, nil) {
				if name != "*" {
					numeric[name] = true
				}
			}
		}
		return true
	}
	syntax.Walk(f, visit)
	for name := range bad {
		delete(numeric, name)
	}
	if bad["*"] {
		clear(numeric)
	}
	return numeric
}

// numberValue reports whether an assignment's value is a number: digits,
// or one arithmetic expansion.
func numberValue(a *syntax.Assign) bool {
	if a.Value == nil || a.Append || a.Index != nil || a.Array != nil {
		return false
	}
	parts := a.Value.Parts
	if len(parts) == 1 {
		if q, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = q.Parts
		}
	}
	if len(parts) != 1 {
		return false
	}
	switch p := parts[0].(type) {
	case *syntax.ArithmExp:
		return true
	case *syntax.Lit:
		return isNumber(strings.TrimPrefix(p.Value, "-"))
	}
	return false
}

// shellNumbers are the variables the shell itself sets to a number.
var shellNumbers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"#": true, "?": true, "$": true, "!": true, "RANDOM": true, "SRANDOM": true, "SECONDS": true, "LINENO": true,
		"PPID": true, "UID": true, "EUID": true, "BASHPID": true, "OPTIND": true, "EPOCHSECONDS": true, "HISTCMD": true,
	}
})

// walkOwn walks the statement s itself, calling f as syntax.Walk does,
// but not the statements in it nor its command and process
// substitutions, which are read in their turn.
func walkOwn(s *syntax.Stmt, f func(syntax.Node) bool) {
	syntax.Walk(s, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			return n == s
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		}
		return f(n)
	})
}

// arithGap names the first arithmetic of the statement s itself (not of
// the statements in it, which are read in their turn) that evaluates the
// text of a variable, or a command's output, that may hold more than a
// number.
func (w *walker) arithGap(s *syntax.Stmt) {
	found := false
	check := func(x syntax.Node, at syntax.Node) {
		if found || x == nil {
			return
		}
		what := ""
		syntax.Walk(x, func(m syntax.Node) bool {
			if what != "" {
				return false
			}
			switch m := m.(type) {
			case *syntax.CmdSubst:
				what = "the output of a command"
			case *syntax.ParamExp:
				if m.Param != nil && !w.numeric[m.Param.Value] && !shellNumbers()[m.Param.Value] {
					what = "the text of $" + m.Param.Value
				}
			case *syntax.Lit:
				if ns := names(m.Value); len(ns) > 0 && strings.HasPrefix(m.Value, ns[0]) && !w.numeric[ns[0]] && !shellNumbers()[ns[0]] {
					what = "the text of " + ns[0]
				}
			}
			return what == ""
		})
		if what == "" {
			return
		}
		found = true
		from, to := w.mapper.span(at)
		w.c.Gaps = append(w.c.Gaps, Gap{Word: Word{From: from, To: to}, Code: true,
			Why: "evaluates " + what + " as arithmetic, where bash runs the command substitutions it may hold (a[$(...)]): what that runs is not known"})
	}
	walkOwn(s, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ArithmExp:
			check(n.X, n)
			return false
		case *syntax.ArithmCmd:
			check(n.X, n)
			return false
		case *syntax.LetClause:
			for _, e := range n.Exprs {
				check(e, n)
			}
			return false
		case *syntax.CStyleLoop:
			check(n.Init, n)
			check(n.Cond, n)
			check(n.Post, n)
			return false
		case *syntax.BinaryTest:
			switch n.Op {
			case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
				check(n.X, n)
				check(n.Y, n)
			}
		}
		return !found
	})
}

// evalGap names, in a script bash runs, what makes bash run the command
// substitutions of a text the script gives as a string (bash 5.2): the
// subscript of an array element named by printf -v, test's or [['s -v,
// or unset ('a[$(cmd)]'); a prompt expansion (${x@P}); and the callback
// mapfile -C evaluates as code.
func (w *walker) evalGap(s *syntax.Stmt) {
	found := false
	gap := func(at syntax.Node, why string) {
		if found {
			return
		}
		found = true
		from, to := w.mapper.span(at)
		w.c.Gaps = append(w.c.Gaps, Gap{Word: Word{From: from, To: to}, Code: true, Why: why + ": what that runs is not known"})
	}
	const subscript = "names an array element whose subscript holds a command substitution, which bash runs"
	name := func(at syntax.Node, word *syntax.Word) {
		if t, ok := literal(word, nil); ok && strings.Contains(t, "[") && (strings.Contains(t, "$(") || strings.Contains(t, "`")) {
			gap(at, subscript+" ("+t+")")
		}
	}
	walkOwn(s, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ParamExp:
			if n.Exp != nil && n.Exp.Op == syntax.OtherParamOps && n.Exp.Word != nil {
				if op, ok := literal(n.Exp.Word, nil); ok && op == "P" {
					gap(n, "expands a text as a prompt (${x@P}), where bash runs the command substitutions it may hold")
				}
			}
		case *syntax.UnaryTest:
			if n.Op == syntax.TsVarSet {
				if word, ok := n.X.(*syntax.Word); ok {
					name(n, word)
				}
			}
		case *syntax.CallExpr:
			args := n.Args
			switch callName(n) {
			case "printf", "test", "[":
				for j := 0; j+1 < len(args); j++ {
					if t, ok := literal(args[j], nil); ok && t == "-v" {
						name(n, args[j+1])
					}
				}
			case "unset":
				for _, a := range args[1:] {
					name(n, a)
				}
			case "mapfile", "readarray":
				for _, a := range args[1:] {
					if t, ok := literal(a, nil); ok && strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.Contains(t, "C") {
						gap(n, "evaluates the callback mapfile -C gives as code")
					}
				}
			}
		}
		return !found
	})
}
