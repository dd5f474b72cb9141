package trust

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"

	"github.com/hookctl/hookctl/internal/lazyre"
)

// What a covered script loads in its turn: the files a shell script
// sources or runs by a path, the modules a Python script imports and the
// files a JavaScript one requires by a relative path, wherever they lie in
// the workspace. A script's own code is covered by its hash; what it pulls
// in is code too, and a clone can change it as easily.

// maxFollow bounds how deep a chain of scripts loading scripts is read.
const maxFollow = 4

// maxParsed is the most of a script that is read for what it loads.
const maxParsed = 1 << 20

// follow covers what the file at real, read as l (shellcmd's Read decides),
// run from the folder cwd (the handler's, as a command's cd left it),
// loads. base is the folder Python searches first (sys.path[0]), "" for
// the script's own folder; start is how a shell script was started ($0),
// which its code may read; call is the call that runs it, whose options
// may load code too (perl -I, node -r), nil for a file another loads.
func (c *coverage) follow(cmd *Command, l shellcmd.Lang, f *File, real, cwd, base string, start shellcmd.Start, call *shellcmd.Call, depth int) {
	if f == nil || f.State != Present || depth >= maxFollow || l == shellcmd.LangNone {
		return
	}
	if c.followed == nil {
		c.followed = map[string]bool{}
	}
	key := fmt.Sprintf("%d\x00%s\x00%s\x00%s\x00%s", l, real, cwd, base, start)
	if c.followed[key] {
		return
	}
	c.followed[key] = true
	content := c.content(f, real)
	name := schema.Visible(f.Path)
	defer c.readerFailed(cmd, name)
	switch l {
	case shellcmd.LangShell:
		// A sourced file or a script run by a path resolves from the
		// shell's folder, not the script's; the script's own folder, as
		// it computes it from $0 ("$(dirname "$0")/lib.sh", DIR="$(cd
		// "$(dirname "$0")" && pwd)"), is followed where certain.
		// Code it reads from a file or text chosen only then (sh
		// "$(dirname "$X")/x", eval "$(cat x)", . "$LIB") is named at
		// its line; a program named by a variable runs no file of the
		// workspace's that a command did not name.
		// A file it sources is read for what it may assign: the bytes
		// covered, so that what trust reads is what it fingerprints.
		sourced := func(p string) (string, bool) {
			f, real := c.coverPath(cmd, p, "script by "+name, false)
			if f == nil || f.State != Present {
				return "", false
			}
			return string(c.content(f, real)), true
		}
		parsed := shellcmd.ParseScript(string(content), cwd, c.root, start, sourced)
		for _, p := range parsed.Probes {
			c.probe(p)
		}
		refs, gaps := parsed.Refs()
		c.inline(cmd, parsed.Calls, depth+1)
		lines := lineCounter{b: content}
		var found []string
		for _, g := range gaps {
			if g.Code {
				why := inScript(g.Why)
				found = append(found, fmt.Sprintf("%s:%d %s", name, lines.at(g.Word.From), why))
			}
		}
		for _, r := range parsed.Repos() {
			if g := c.gitRepo(cmd, r); g != "" {
				found = append(found, fmt.Sprintf("%s:%d %s", name, lines.at(r.Word.From), g))
			}
		}
		for _, n := range parsed.Nested() {
			for _, g := range c.nested(cmd, n, depth+1) {
				found = append(found, fmt.Sprintf("%s:%d %s", name, lines.at(n.Word.From), g))
			}
		}
		c.logs(cmd, parsed, func(w shellcmd.Word) string { return fmt.Sprintf("%s:%d ", name, lines.at(w.From)) })
		addGaps(cmd, found)
		for _, r := range refs {
			if r.Role.Runs() {
				c.coverRef(cmd, r, "by "+name, start, depth+1)
			}
		}
	case shellcmd.LangPython:
		if base == "" {
			base = filepath.Dir(real)
		}
		c.pythonImports(cmd, content, real, base, name, depth)
		c.pythonRuns(cmd, content, cwd, name, depth)
	case shellcmd.LangNode:
		c.nodeRequires(cmd, content, real, cwd, name, depth)
		c.nodeOptions(cmd, call, name, depth)
	case shellcmd.LangPerl:
		c.perl(cmd, content, real, cwd, name, call, depth)
	case shellcmd.LangRuby:
		c.ruby(cmd, content, real, cwd, name, call, depth)
	case shellcmd.LangPHP:
		c.php(cmd, content, name)
	case shellcmd.LangAwk:
		c.awk(cmd, content, cwd, name, depth)
	case shellcmd.LangMake:
		c.make(cmd, content, cwd, name, call, depth)
	}
}

// scriptWords says of a script what shellcmd says of a command.
var scriptWords = strings.NewReplacer("when the command runs", "when the script runs", "the command computes", "the script computes", "the command sources", "the script sources")

// inScript is a gap's reason, said of a script rather than a command.
func inScript(why string) string { return scriptWords.Replace(why) }

// lineCounter gives the line of offsets in b, counting on from the last
// offset asked for rather than from the start: a script's gaps come in
// order, and a 1 MiB script may hold a gap on every line.
type lineCounter struct {
	b          []byte
	off, lines int
}

// at returns the line (from 1) of the byte at off.
func (l *lineCounter) at(off int) int {
	off = min(max(off, 0), len(l.b))
	if off < l.off {
		l.off, l.lines = 0, 0
	}
	l.lines += bytes.Count(l.b[l.off:off], []byte("\n"))
	l.off = off
	return 1 + l.lines
}

// keywordAt returns where the match m of an expression starts its
// keyword: past the newline that an alternative such as (?m:^|[^.\w])
// takes before a keyword at the start of a line, so that the keyword is
// named at its own line, not the line before.
func keywordAt(b []byte, m []int) int {
	if m[0] < m[1] && m[0] < len(b) && b[m[0]] == '\n' {
		return m[0] + 1
	}
	return m[0]
}

// readerFailed, deferred by a reading of a file, names the file when a
// reader fails on what it holds (a panic on text it did not foresee),
// instead of stopping hookctl: what the file runs or loads past that point
// is not known, and trust says so rather than staying silent.
func (c *coverage) readerFailed(cmd *Command, name string) {
	if r := recover(); r != nil {
		addGaps(cmd, []string{name + " could not be read to its end (hookctl's reader failed on what it holds: " +
			schema.Visible(fmt.Sprint(r)) + "): what it runs or loads is not known"})
	}
}

// addGaps appends to cmd.Gaps, in order, those of gaps it does not hold
// yet: one look-up each, where appendNew would scan the list every time.
func addGaps(cmd *Command, gaps []string) {
	if len(gaps) == 0 {
		return
	}
	seen := make(map[string]bool, len(cmd.Gaps)+len(gaps))
	for _, g := range cmd.Gaps {
		seen[g] = true
	}
	for _, g := range gaps {
		if !seen[g] {
			seen[g] = true
			cmd.Gaps = append(cmd.Gaps, g)
		}
	}
}

// content returns what a covered file holds, for what it loads: the bytes
// hashed when they were kept, else read again (bounded), since a check
// that finds the file unchanged does not read it. The same bytes are read
// whether the hash was taken now or kept, so trusting and checking cover
// the same files.
func (c *coverage) content(f *File, real string) []byte {
	if f.Content != nil {
		return f.Content
	}
	if c.contents == nil {
		c.contents = map[string][]byte{}
	}
	if b, ok := c.contents[real]; ok {
		return b
	}
	c.probe(real)
	b, _ := schema.ReadFile(real, maxParsed)
	c.contents[real] = b
	return b
}

// maxModuleParts bounds the dotted parts of an imported module that trust
// follows (a real one has a handful).
const maxModuleParts = 32

// pyDynamic finds, in Python's code (pyCode: comments and the text of
// strings set aside), what loads code trust cannot follow by reading the
// script: a changed import path, an import by a computed name, code run
// from a string, a compiled library or a pickle loaded (pickle and what
// is built on it: shelve, dill, joblib, pandas' read_pickle, numpy's
// allow_pickle, torch.load; yaml's unsafe loaders), shell code, and what
// reaches those by another road: builtins, sys.modules, the modules
// that run code from a string or import by a name or a folder (code,
// timeit, cProfile, pdb, trace, doctest, pkgutil, zipimport, unittest's
// loaders), a look-up by name in a namespace (globals()[n], vars(m)[n],
// m.__dict__[n], a frame's f_globals) and an exec or eval method given
// code (x.exec(src)).
var pyDynamic = lazyre.New(`\bsys\.path\s*(?:\.(?:insert|append|extend)\s*\(|\[|\+=|=[^=])|\bsite\.addsitedir\s*\(|\bimportlib\b|\bimp\.load_|__import__\s*\(|\brunpy\.run_|(?m:^|[^.\w])(?:exec|eval|compile|execfile)\s*\(|\b(?:ctypes|cdll|CDLL|LoadLibrary)\b|\b(?:pickle|marshal)\.loads?\s*\(|\bshell\s*=\s*True\b|\bos\.(?:system|popen|exec\w*|spawn\w*)\s*\(|\bsubprocess\.(?:getoutput|getstatusoutput)\s*\(|\bpty\.spawn\s*\(|\b__(?:builtins|subclasses|globals)__\b|\bbuiltins\b|\bsys\.(?:modules|meta_path|path_hooks)\b|(?m:^[ \t]*(?:from|import(?:[ \t]+[\w.]+(?:[ \t]+as[ \t]+\w+)?[ \t]*,)*)[ \t]+(?:code|codeop|timeit|cProfile|profile|pdb|bdb|trace|doctest|pkgutil|zipimport|pickle|cPickle|_pickle|dill|cloudpickle|shelve|jsonpickle|joblib)\b)|\bUnpickler\b|\bread_pickle\s*\(|\ballow_pickle\s*=\s*True\b|\btorch\.load\s*\(|\byaml\.(?:unsafe_load|unsafe_load_all|full_load|full_load_all)\s*\(|\bLoader\s*=\s*(?:yaml\.)?(?:Loader|UnsafeLoader|FullLoader)\b|\bunittest\.main\s*\(|\.discover\s*\(|\bloadTestsFromNames?\s*\(|(?:\b(?:globals|locals)\s*\(\s*\)|\bvars\s*\([^()]*\)|\.__dict__)\s*(?:\[|\.\s*get\s*\()|\bf_(?:builtins|globals|locals)\b|\.\s*(?:exec|eval)\s*\(\s*[^)\s]`)

// pyEnviron finds, in Python's code, what changes the folder or the
// environment that the programs a script starts, and the modules it
// imports by a path relative to the folder, are taken from: os.chdir, a
// write to os.environ, os.putenv, dotenv's load_dotenv (a .env file's
// settings, PATH among them).
var pyEnviron = lazyre.New(`\b(?:chdir|fchdir|putenv|load_dotenv)\s*\(|\benviron\s*(?:\[[^\]\n]*\]\s*=[^=]|\.\s*(?:update|setdefault|__setitem__)\s*\(|\|=)`)

// pythonRuns covers what Python code (content) starts, run from the
// folder cwd ("" when not known), and names what else it loads or runs
// that its reading cannot follow: pythonPrograms, then pythonDynamic, on
// the one pyCode of it.
func (c *coverage) pythonRuns(cmd *Command, content []byte, cwd, name string, depth int) {
	code := pyCode(content)
	c.pythonDynamic(cmd, content, code, name, c.pythonPrograms(cmd, content, code, cwd, name, depth))
}

// pythonDynamic names, at their lines, what the Python code (content, and
// its pyCode code) loads or runs that its reading cannot follow
// (pyDynamic), but the calls that start a program that pythonPrograms read
// (at the offsets in read).
func (c *coverage) pythonDynamic(cmd *Command, content, code []byte, name string, read map[int]bool) {
	lines := lineCounter{b: content}
	var found []string
	for _, m := range pyDynamic().FindAllIndex(code, -1) {
		if read[keywordAt(code, m)] {
			continue // a program started from literal arguments, read
		}
		found = append(found, fmt.Sprintf("%s:%d changes where Python imports from, imports or runs code by a name or from a string known only when the script runs, or hands code to a shell (sys.path, importlib, exec, eval, shell=True, os.system): what it loads that way is not fingerprinted", name, lines.at(keywordAt(code, m))))
	}
	if at := pyUnnormalized(code); at >= 0 {
		found = append(found, fmt.Sprintf("%s:%d writes a name with characters Python reads as others (NFKC: \"ｏs\" is os), which hookctl does not read: what that name imports or runs is not known", name, lines.at(at)))
	}
	for _, m := range pyEnviron().FindAllIndex(code, -1) {
		found = append(found, fmt.Sprintf("%s:%d changes the folder or the environment that what it starts or imports later is found from (os.chdir, os.environ, os.putenv): what that runs is not known", name, lines.at(m[0])))
	}
	addGaps(cmd, found)
}

// pythonImports covers the modules a Python script imports from the
// workspace: each as the files Python would take for it from base
// (sys.path[0]), or from the script's package for a relative import. A
// module that is not there is recorded missing: creating one (a json.py
// that shadows the standard library's) withdraws the trust.
func (c *coverage) pythonImports(cmd *Command, content []byte, real, base, name string, depth int) {
	imps := pyImports(content)
	c.pythonShadows(cmd, base, name, installedImport(imps), depth)
	lines := lineCounter{b: content}
	for _, imp := range imps {
		if !imp.from {
			c.pythonModule(cmd, base, strings.ReplaceAll(imp.mod, ".", "/"), name, depth)
			continue
		}
		dir := base
		if imp.dots > 0 {
			dir = filepath.Dir(real)
			for i := 1; i < imp.dots; i++ {
				dir = filepath.Dir(dir)
			}
		}
		mod := strings.ReplaceAll(imp.mod, ".", "/")
		for _, n := range imp.names {
			if n == "*" {
				// from pkg import *: the names of its __all__, which may
				// be submodules it then imports.
				init := filepath.Join(dir, mod, "__init__.py")
				c.probe(init)
				if info, err := os.Stat(init); err == nil && !info.IsDir() && c.inside(c.resolver.Resolve(dir)) {
					addGaps(cmd, []string{fmt.Sprintf("%s:%d imports * from the package %s, whose __all__ may name submodules it loads: what it loads that way is not fingerprinted", name, lines.at(imp.off), schema.Visible(imp.mod))})
				}
				continue
			}
			// from pkg import x: x is a name in pkg, or its submodule.
			c.pythonModule(cmd, dir, strings.Trim(mod+"/"+n, "/"), name, depth)
		}
		if mod != "" {
			c.pythonModule(cmd, dir, mod, name, depth)
		}
	}
}

// pythonInline covers what the code of each python -c (or node -e) among
// calls imports: that code is the command's own text, but the modules it
// names are looked for in the folder the call runs in first (sys.path[0],
// or node's folder of [eval]), as for python -m.
func (c *coverage) pythonInline(cmd *Command, calls []*shellcmd.Call, depth int) {
	if depth >= maxFollow {
		return
	}
	for _, call := range calls {
		prog, _ := shellcmd.ProgramOf(call.Args)
		if prog < 0 {
			continue
		}
		name := path.Base(call.Args[prog].Text)
		py, node := shellcmd.IsPython(name), name == "node" || name == "nodejs"
		if !py && !node {
			continue
		}
		if call.Dir == "" || !filepath.IsAbs(call.Dir) {
			// The folder it imports from is not known: its code is
			// still read for what it runs, and an import in it of a
			// module that is not the standard library's is named.
			c.inlineUnknownFolder(cmd, call, prog, py, depth)
			continue
		}
		if _, script := shellcmd.ProgramOf(call.Args); node && script < 0 {
			// What node's options load before -e code or a script on
			// stdin (-r, --import, --env-file), as before a script.
			c.nodeOptions(cmd, call, "node", depth)
		}
		for j := prog + 1; j < len(call.Args); j++ {
			a := call.Args[j]
			var code shellcmd.Word
			if j+1 < len(call.Args) {
				code = call.Args[j+1]
			}
			opt, rest := byte(0), ""
			if py {
				opt, rest = shellcmd.PythonOption(a.Text)
				if opt == 'c' && rest != "" {
					// python3 -c'import m': the code is the word's rest.
					code = a
					code.Text = rest
				}
			}
			switch {
			case py && opt == 'c':
				if code.Lit {
					c.pythonImports(cmd, []byte(code.Text), filepath.Join(call.Dir, "-c"), call.Dir, "python -c", depth)
					c.pythonRuns(cmd, []byte(code.Text), call.Dir, "python -c", depth)
				}
			case py && opt == 'm':
				// The module is followed by the command's own check.
			case node && (a.Text == "-e" || a.Text == "--eval" || a.Text == "-p" || a.Text == "--print"):
				// node -e "require('./x')" resolves from the current
				// folder.
				if code.Lit {
					c.nodeRequires(cmd, []byte(code.Text), filepath.Join(call.Dir, "[eval]"), call.Dir, "node -e", depth)
				}
			case py && (opt == 'W' || opt == 'X') && rest == "":
				j++ // the option's value
				continue
			case strings.HasPrefix(a.Text, "-") && a.Text != "-":
				continue
			}
			break
		}
	}
}

// pythonShadows covers the modules in base (sys.path[0], in the
// workspace) that Python takes in place of those imported by name as it
// runs: those named like a module of the standard library, which the
// standard library's own modules import (subprocess imports selectors),
// or, when the script imports a module that is not the standard
// library's (all), every module there, as an installed package imports
// others by names of its own (requests imports idna). The folder is probed, so that one created there
// withdraws the trust.
func (c *coverage) pythonShadows(cmd *Command, base, by string, all bool, depth int) {
	if base == "" || !c.inside(c.resolver.Resolve(base)) {
		return
	}
	if c.shadowed == nil {
		c.shadowed = map[string][]string{}
	}
	stems, ok := c.shadowed[base]
	if !ok {
		c.probe(base)
		ents, _ := os.ReadDir(base)
		for _, e := range ents {
			stem, ext, _ := strings.Cut(e.Name(), ".")
			// A folder is a package when it holds __init__.py: one
			// without is a namespace package, which Python takes only
			// when no other path has the name.
			module := strings.HasSuffix(e.Name(), ".py") || strings.HasSuffix(e.Name(), ".pyc") || strings.HasSuffix(e.Name(), ".so")
			if e.IsDir() && ext == "" {
				init := filepath.Join(base, e.Name(), "__init__.py")
				c.probe(init)
				_, err := os.Stat(init)
				module = err == nil
			}
			if module && stem != "" && !slices.Contains(stems, stem) {
				stems = append(stems, stem)
			}
		}
		c.shadowed[base] = stems
	}
	for _, stem := range stems {
		if all || pyStdlib()[stem] {
			c.pythonModule(cmd, base, stem, by, depth)
		}
	}
}

// installedImport reports whether a Python file imports, by an absolute
// name, a module that is not the standard library's: an installed package,
// whose own imports Python looks for in sys.path[0] first, or one of the
// workspace's, which may import one (whether it is there or not, so that
// creating it changes nothing else that is covered).
func installedImport(imps []pyImport) bool {
	for _, imp := range imps {
		top, _, _ := strings.Cut(imp.mod, ".")
		if imp.dots == 0 && top != "" && !pyStdlib()[top] {
			return true
		}
	}
	return false
}

// inlineUnknownFolder reads the code of a python -c or node -e call whose
// folder is not known: what the code runs from a string or starts is read
// or named as anywhere, and an import of a module that is not the standard
// library's, or a require, which Python and node look for in that folder
// first, is named.
func (c *coverage) inlineUnknownFolder(cmd *Command, call *shellcmd.Call, prog int, py bool, depth int) {
	for j := prog + 1; j+1 < len(call.Args); j++ {
		a, code := call.Args[j], call.Args[j+1]
		switch {
		case py && a.Text == "-c" && code.Lit:
			src := []byte(code.Text)
			if installedImport(pyImports(src)) {
				addGaps(cmd, []string{"python -c imports a module that is not the standard library's, which Python looks for first in the folder it runs in, known only when it runs: what it loads that way is not fingerprinted"})
			}
			c.pythonRuns(cmd, src, "", "python -c", depth)
		case !py && (a.Text == "-e" || a.Text == "--eval" || a.Text == "-p" || a.Text == "--print") && code.Lit:
			if len(jsSpecs([]byte(code.Text))) > 0 {
				addGaps(cmd, []string{"node -e loads modules, which node looks for from the folder it runs in, known only when it runs: what it loads that way is not fingerprinted"})
			}
		case strings.HasPrefix(a.Text, "-"):
			continue
		}
		return
	}
}

// pythonModule covers the files of the module at dir/mod (slashes), and of
// each package on its way: mod.py, mod/__init__.py, and the bytecode
// Python would load in their place unchecked.
func (c *coverage) pythonModule(cmd *Command, dir, mod, by string, depth int) {
	parts := strings.Split(mod, "/")
	if len(parts) > maxModuleParts {
		// Each part costs two look-ups on a path one part longer: a
		// module of thousands of parts, which no project has, would cost
		// a dispatch seconds. It is named instead of followed.
		addGaps(cmd, []string{fmt.Sprintf("%s imports a module of %d dotted parts, more than %d: it is not followed, and what it loads is not fingerprinted", by, len(parts), maxModuleParts)})
		return
	}
	for i := range parts {
		p := filepath.Join(dir, filepath.Join(parts[:i+1]...))
		for _, cand := range []string{p + ".py", filepath.Join(p, "__init__.py")} {
			c.probe(cand)
			if _, err := os.Stat(cand); err != nil && c.inAgents(cand) {
				continue // new code in the hooks' folder is covered as such
			}
			f, real := c.coverPath(cmd, cand, "module imported by "+by, true)
			if f != nil && f.State == Present {
				c.pycache(cmd, real, by)
				c.follow(cmd, shellcmd.LangPython, f, real, "", dir, shellcmd.Start{}, nil, depth+1)
			}
		}
		for _, stem := range []string{p, filepath.Join(p, "__init__")} {
			for _, cand := range c.pythonCompiled(stem) {
				c.coverPath(cmd, cand, "module imported by "+by, true)
			}
		}
	}
}

// pythonCompiled returns the files beside stem (a module's path without
// its .py) that Python takes for that module from the same folder: an
// extension module (stem.cpython-311-x86_64-linux-gnu.so, stem.abi3.so,
// stem.so), tried before stem.py, and sourceless bytecode (stem.pyc),
// tried when stem.py is not there. A json.pyc beside a script shadows
// the standard library's json. The folder is listed (and so probed), as
// the tag of an extension module depends on the interpreter (in the
// hooks' folder, where its code is covered anyway, this also covers the
// agent's own content, which is not walked); a folder outside the
// workspace is not listed.
func (c *coverage) pythonCompiled(stem string) []string {
	dir, base := filepath.Dir(stem), filepath.Base(stem)
	if !c.inside(c.resolver.Resolve(dir)) {
		return nil
	}
	names, ok := c.listings[dir]
	if !ok {
		c.probe(dir)
		if ents, err := os.ReadDir(dir); err == nil {
			for _, e := range ents {
				if n := e.Name(); strings.HasSuffix(n, ".pyc") || strings.HasSuffix(n, ".so") {
					names = append(names, n)
				}
			}
		}
		if c.listings == nil {
			c.listings = map[string][]string{}
		}
		c.listings[dir] = names
	}
	var out []string
	for _, n := range names {
		if n == base+".pyc" || strings.HasPrefix(n, base+".") && strings.HasSuffix(n, ".so") {
			out = append(out, filepath.Join(dir, n))
		}
	}
	return out
}

// pycache covers the bytecode of a Python source that Python loads without
// comparing it with the source: a pyc compiled with the unchecked-hash
// invalidation mode (PEP 552), in the __pycache__ folder beside the source.
// A timestamp pyc (the default) or a checked-hash one is loaded only when
// it matches the source, which is covered itself.
func (c *coverage) pycache(cmd *Command, src, by string) {
	dir := filepath.Join(filepath.Dir(src), "__pycache__")
	stem := strings.TrimSuffix(filepath.Base(src), ".py") + "."
	c.probe(dir)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		n := e.Name()
		if !strings.HasPrefix(n, stem) || !strings.HasSuffix(n, ".pyc") {
			continue
		}
		c.probe(filepath.Join(dir, n)) // its flags are read
		if uncheckedPyc(filepath.Join(dir, n)) {
			c.coverPath(cmd, filepath.Join(dir, n), "bytecode Python loads unchecked, for "+by, false)
		}
	}
}

// inAgents reports whether a path lies in the hooks' folder, links
// resolved.
func (c *coverage) inAgents(p string) bool {
	_, ok := relIn(c.agents, c.resolver.Resolve(p))
	return ok
}

// uncheckedPyc reports whether the file is a pyc that Python loads without
// checking its source: its flags word (bytes 4 to 8) has the hash-based
// bit and not the check-source bit.
func uncheckedPyc(p string) bool {
	f, err := schema.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	var h [8]byte
	if n, _ := f.Read(h[:]); n < 8 {
		return false
	}
	return h[4]&1 != 0 && h[4]&2 == 0
}
