package trust

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/internal/lazyre"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// What a JavaScript (or TypeScript) file loads, read as node reads it
// (Node.js 20, doc/api/modules.md and doc/api/esm.md):
//
//   - require(SPEC) takes SPEC as a path: "./x?v=1" is a file of that name,
//     and an extensionless name is tried with .js, .json, .node and as a
//     folder (its package.json "main", its index.js);
//   - import ... from SPEC, import SPEC, export ... from SPEC and import(SPEC)
//     take SPEC as a URL resolved against the importing file's: its query
//     and fragment are dropped, \ is /, "%2e" is a dot, the rest is
//     percent-decoded (an encoded / or \ is refused), and a file: URL names
//     an absolute path ("file:x.mjs" is /x.mjs); no extension is added
//     (TypeScript runners add them, so the extensionless candidates are
//     covered too).
//
// A specifier that is not a literal string, a "#name" mapped through a
// package.json's "imports", a URL of another scheme, and the other ways
// code loads code (eval, new Function, vm, workers, createRequire,
// module.register, process.dlopen, WebAssembly) are named at their line.

// jsLoad finds where a file loads a module: require(, import(, from and
// import followed by a quote.
var jsLoad = lazyre.New(`\brequire\s*\(\s*|\bimport\s*\(\s*|\bfrom\s*["'` + "`" + `]|\bimport\s*["'` + "`" + `]`)

// jsDynamic finds the ways JavaScript runs code it builds or loads outside
// require and import, and require used as a value (const r = require):
// eval called or taken as a value ((0, eval)(s), globalThis.eval),
// Function called with or without new, a constructor called as a
// function (f.constructor(s) is Function), the modules vm,
// worker_threads and module loaded under any name, Module's _load and
// _compile.
var jsDynamic = lazyre.New(`\bcreateRequire\s*\(|\bnew\s+(?:[\w$]+\s*\.\s*)?(?:Worker|Function)\s*\(|(?m:^|[^.\w$])eval\s*[(),;\]]|\b(?:globalThis|global|window|self)\s*(?:\.\s*eval\b|\[)|(?m:^|[^.\w$])Function\s*\(|\.\s*constructor\s*\(|(?:\brequire\s*\(\s*|\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'` + "`" + `](?:node:)?(?:vm|worker_threads|module)["'` + "`" + `]|\.\s*_(?:load|compile)\s*\(|\bvm\.(?:run\w*|compile\w*|Script|SourceTextModule)\b|\.\s*dlopen\s*\(|\brequire\.extensions\b|\bModule\._load\b|\bmodule\.require\s*\(|\b[Mm]odule\.register\s*\(|\bWebAssembly\.(?:instantiate|compile|Module)\b|[=(,:?]\s*require\s*[;),\n]`)

// jsEnviron finds where JavaScript changes the folder or the environment
// that the programs it starts, and the modules it loads by a path relative
// to the folder, are found from: process.chdir, a write to process.env
// (process.env.PATH = x, process.env[k] = v, Object.assign(process.env,
// ...), delete process.env.X), and what loads a .env file into it
// (process.loadEnvFile, the dotenv package).
var jsEnviron = lazyre.New(`\bprocess\s*\.\s*(?:chdir|loadEnvFile)\s*\(|["'` + "`" + `]dotenv(?:/config)?["'` + "`" + `]|\bprocess\s*\.\s*env\s*(?:\.\s*[\w$]+|\[[^\]\n]*\])\s*(?:=[^=]|\+=|\|\|=|\?\?=)|\bObject\s*\.\s*assign\s*\(\s*process\s*\.\s*env\b|\bdelete\s+process\s*\.\s*env\b|\bprocess\s*\.\s*env\s*=[^=]`)

// jsEscapedName finds, in JavaScript's code (jsCode: strings and comments
// blanked), a Unicode escape, which only a name may hold there.
var jsEscapedName = lazyre.New(`\\u(?:[0-9A-Fa-f]{4}|\{[0-9A-Fa-f]+\})`)

// jsShell finds where JavaScript hands a shell code (child_process's
// exec and execSync always do; spawn and execFile with shell: true, or
// with sh -c).
var jsShell = lazyre.New(`\bexecSync\s*\(|(?m:^|[^.\w$])exec\s*\(|\b(?:child_process|childProcess|cp)\.exec\s*\(|\bshell\s*:\s*true\b|\b(?:spawn|spawnSync|execFile|execFileSync)\s*\(\s*["'](?:/bin/|/usr/bin/)?(?:sh|bash|dash|zsh)["']`)

// jsSpec is one module specifier a file loads, or why it cannot be read.
type jsSpec struct {
	off  int    // where the load stands in the file
	spec string // the specifier, when literal
	esm  bool   // a URL (import), not a path (require)
	why  string // set when the specifier is not a literal that can be read
}

// jsSpecs returns the module specifiers of a JavaScript file.
func jsSpecs(content []byte) []jsSpec {
	var out []jsSpec
	for _, m := range jsLoad().FindAllIndex(content, -1) {
		kw := string(content[m[0]:m[1]])
		at := m[1]
		call := strings.HasSuffix(strings.TrimSpace(kw), "(")
		if !call {
			at-- // the quote
		}
		s := jsSpec{off: m[0], esm: !strings.HasPrefix(kw, "require")}
		lit, end, ok := jsString(content, at)
		switch {
		case !ok:
			s.why = "loads a module by a name known only when the script runs (require(x), import(`./${y}`), './' + z)"
		case call && !jsCallEnds(content, end):
			s.why = "loads a module by a name built when the script runs ('./' + name)"
		default:
			s.spec = lit
		}
		out = append(out, s)
	}
	return out
}

// jsString reads the string literal at b[i] ('...', "..." or a template
// without ${}), without escapes: its text, the offset past it, and
// whether it is one.
func jsString(b []byte, i int) (string, int, bool) {
	if i >= len(b) {
		return "", i, false
	}
	q := b[i]
	if q != '"' && q != '\'' && q != '`' {
		return "", i, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == q:
			return string(b[i+1 : j]), j + 1, true
		case c == '\\' || c == '\n' || q == '`' && c == '$' && j+1 < len(b) && b[j+1] == '{':
			return "", j, false
		}
	}
	return "", len(b), false
}

// jsCallEnds reports whether a call's argument ends at b[i]: ) or , (the
// options of import(spec, {with: ...})), not + or a method.
func jsCallEnds(b []byte, i int) bool {
	for ; i < len(b); i++ {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			continue
		case ')', ',':
			return true
		}
		return false
	}
	return false
}

// specKind says what a module specifier names.
type specKind uint8

const (
	specFile    specKind = iota // a file, by a path or a file: URL
	specPackage                 // a package from node_modules
	specBuiltin                 // node:fs
	specImports                 // #name, through a package.json's "imports"
	specOther                   // a URL of another scheme (data:, https:), or a name not read
	specRefused                 // one node refuses, which loads nothing
)

// nodeSpec returns the file a specifier names from the folder dir: as a
// path for require, as a URL for import (esm).
func nodeSpec(dir, spec string, esm bool) (string, specKind) {
	for _, r := range spec {
		if r < 0x20 || r == 0x7f {
			// The URL parser drops tabs and newlines, and trims
			// control characters: not read here.
			return "", specOther
		}
	}
	relative := spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || strings.HasPrefix(spec, "/")
	switch {
	case strings.HasPrefix(spec, "#"):
		return "", specImports
	case relative && !esm:
		if strings.HasPrefix(spec, "/") {
			return filepath.Clean(spec), specFile
		}
		return filepath.Join(dir, spec), specFile
	case relative:
		p, ok := urlPath(spec)
		if !ok {
			return "", specRefused
		}
		if !strings.HasPrefix(p, "/") {
			p = dir + "/" + p
		}
		return filepath.Clean(p), specFile
	}
	scheme, rest, ok := strings.Cut(spec, ":")
	if !ok || !urlScheme().MatchString(scheme) {
		return "", specPackage
	}
	switch strings.ToLower(scheme) {
	case "node":
		return "", specBuiltin
	case "file":
		if !esm {
			return "", specPackage // require("file:x") looks for a package named so
		}
		rest = strings.ReplaceAll(rest, `\`, "/")
		if strings.HasPrefix(rest, "//") {
			host, p, _ := strings.Cut(rest[2:], "/")
			if host != "" && !strings.EqualFold(host, "localhost") {
				return "", specRefused // ERR_INVALID_FILE_URL_HOST
			}
			rest = "/" + p
		}
		p, ok := urlPath(rest)
		if !ok {
			return "", specRefused
		}
		if !strings.HasPrefix(p, "/") {
			p = "/" + p
		}
		return filepath.Clean(p), specFile
	}
	return "", specOther
}

var urlScheme = lazyre.New(`^[A-Za-z][A-Za-z0-9+.-]*$`)

// urlPath returns the path of a URL's path part as the WHATWG URL parser
// and node's fileURLToPath make it: up to the first ? or #, \ read as /,
// dot segments (".", "..", and their percent-encoded spellings) applied,
// each segment percent-decoded; false for an encoded / or \, which node
// refuses.
func urlPath(u string) (string, bool) {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	u = strings.ReplaceAll(u, `\`, "/")
	abs := strings.HasPrefix(u, "/")
	var out []string
	segs := strings.Split(u, "/")
	for i, s := range segs {
		low := strings.ToLower(s)
		switch low {
		case ".", "%2e":
			if i == len(segs)-1 {
				out = append(out, "")
			}
			continue
		case "..", ".%2e", "%2e.", "%2e%2e":
			if len(out) > 0 && out[len(out)-1] != ".." && (abs || out[len(out)-1] != "") {
				out = out[:len(out)-1]
			} else if !abs {
				out = append(out, "..")
			}
			if i == len(segs)-1 {
				out = append(out, "")
			}
			continue
		}
		if strings.Contains(low, "%2f") || strings.Contains(low, "%5c") {
			return "", false
		}
		out = append(out, percentDecode(s))
	}
	p := strings.Join(out, "/")
	if abs && !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return p, true
}

// percentDecode decodes %XX sequences, leaving malformed ones as they are,
// as the URL parser's percent-decode does.
func percentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	hex := func(c byte) (byte, bool) {
		switch {
		case '0' <= c && c <= '9':
			return c - '0', true
		case 'a' <= c && c <= 'f':
			return c - 'a' + 10, true
		case 'A' <= c && c <= 'F':
			return c - 'A' + 10, true
		}
		return 0, false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			h, ok1 := hex(s[i+1])
			l, ok2 := hex(s[i+2])
			if ok1 && ok2 {
				b.WriteByte(h<<4 | l)
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// nodeRequires covers the files a JavaScript file loads by a path or a
// file URL, as node resolves them (see above). Packages by name come from
// node_modules: inside the hooks' folder they are covered as code;
// elsewhere they are named as not covered.
func (c *coverage) nodeRequires(cmd *Command, content []byte, real, cwd, name string, depth int) {
	code, text := jsCode(content)
	read := c.nodePrograms(cmd, content, code, text, cwd, name, depth)
	dir := filepath.Dir(real)
	lines := lineCounter{b: content}
	var gaps []string
	gap := func(off int, why string) {
		gaps = append(gaps, fmt.Sprintf("%s:%d %s: what it loads that way is not fingerprinted", name, lines.at(off), why))
	}
	var dyns []int
	for _, m := range jsDynamic().FindAllIndex(content, -1) {
		dyns = append(dyns, keywordAt(content, m))
	}
	if m := jsEscapedName().FindIndex(code); m != nil {
		// \u0065val is eval, \u0072equire require: a name written with
		// escapes, outside a string, is one the readers would not match.
		dyns = append(dyns, m[0])
	}
	environ := map[int]bool{}
	for _, m := range jsEnviron().FindAllIndex(content, -1) {
		dyns = append(dyns, m[0])
		environ[m[0]] = true
	}
	shells := map[int]bool{}
	for _, m := range jsShell().FindAllIndex(content, -1) {
		at := keywordAt(content, m)
		if read[at] {
			continue // read as the command or call it is
		}
		dyns = append(dyns, at)
		shells[at] = true
	}
	slices.Sort(dyns)
	specs := jsSpecs(content)
	// In file order, so that the line counter moves forward.
	for len(specs) > 0 || len(dyns) > 0 {
		if len(dyns) > 0 && (len(specs) == 0 || dyns[0] < specs[0].off) {
			switch {
			case shells[dyns[0]]:
				gap(dyns[0], "hands code to a shell (exec, execSync, shell: true, sh -c)")
			case environ[dyns[0]]:
				gaps = append(gaps, fmt.Sprintf("%s:%d changes the folder or the environment that what it starts or loads later is found from (process.chdir, process.env): what that runs is not known", name, lines.at(dyns[0])))
			default:
				gap(dyns[0], "runs or loads code that require and import do not name (eval, new Function, vm, a worker, createRequire, module.register)")
			}
			dyns = dyns[1:]
			continue
		}
		s := specs[0]
		specs = specs[1:]
		if s.why != "" {
			gap(s.off, s.why)
			continue
		}
		p, kind := nodeSpec(dir, s.spec, s.esm)
		switch kind {
		case specImports:
			gap(s.off, "loads "+schema.Visible(s.spec)+", which node maps through the \"imports\" of a package.json")
		case specOther:
			gap(s.off, "loads "+schema.Visible(s.spec)+", a module that is no file of the workspace")
		case specFile:
			c.nodeFile(cmd, p, name, depth)
		}
	}
	addGaps(cmd, gaps)
	// require("pkg") looks in every node_modules from the script's folder
	// up: those in the hooks' folder are covered as code, the others not.
	for d := dir; ; d = filepath.Dir(d) {
		nm := filepath.Join(d, "node_modules")
		c.probe(nm)
		if _, in := relIn(c.agents, nm); !in {
			if info, err := os.Stat(nm); err == nil && info.IsDir() {
				shown := nm
				if rel, ok := c.rel(nm); ok {
					shown = rel
				}
				cmd.Gaps = appendNew(cmd.Gaps, fmt.Sprintf("%s may load packages from %s, which are not fingerprinted", name, schema.Visible(shown)))
			}
		}
		if _, ok := relIn(c.root, d); !ok || d == c.root || d == filepath.Dir(d) {
			return
		}
	}
}

// nodeFile covers the file at p that a JavaScript file loads, and, for a
// name without an extension, the files node or a TypeScript runner may
// take for it.
func (c *coverage) nodeFile(cmd *Command, p, name string, depth int) {
	alts := []string{p}
	if path.Ext(p) == "" {
		for _, e := range []string{".js", ".mjs", ".cjs", ".json", ".node", ".ts"} {
			alts = append(alts, p+e)
		}
		alts = append(alts, p+"/index.js", p+"/index.mjs", p+"/index.cjs")
	}
	for _, a := range alts {
		f, r := c.coverPath(cmd, a, "required by "+name, a != p)
		c.followNode(cmd, f, r, depth)
	}
	if path.Ext(p) == "" {
		c.nodePackageMain(cmd, p, name, depth)
	}
}

// followNode follows a file node loads: JavaScript, unless it is a
// compiled addon (.node), which is named.
func (c *coverage) followNode(cmd *Command, f *File, real string, depth int) {
	if f == nil || f.State != Present {
		return
	}
	if strings.HasSuffix(real, ".node") || bytes.HasPrefix(c.content(f, real), []byte("\x7fELF")) {
		addGaps(cmd, []string{schema.Visible(f.Path) + " is a compiled addon: what it loads or runs is not read"})
		return
	}
	c.follow(cmd, shellcmd.LangNode, f, real, "", "", shellcmd.Start{}, nil, depth+1)
}

// nodePackageMain covers, for a folder that require() loads by its path,
// its package.json and the file its "main" names, which node takes before
// the folder's index.js: a package.json added beside a trusted index.js
// would run another file. Not there, package.json is only probed, so
// that creating it withdraws the trust.
func (c *coverage) nodePackageMain(cmd *Command, dir, name string, depth int) {
	pj := filepath.Join(dir, "package.json")
	c.probe(pj)
	if info, err := os.Stat(pj); err != nil || info.IsDir() {
		return
	}
	f, r := c.coverPath(cmd, pj, "read by node for the folder required by "+name, false)
	if f == nil || f.State != Present {
		return
	}
	var pkg struct {
		Main string `json:"main"`
	}
	if json.Unmarshal(c.content(f, r), &pkg) != nil || pkg.Main == "" {
		return
	}
	m := filepath.Join(dir, filepath.FromSlash(pkg.Main))
	alts := []string{m}
	for _, e := range []string{".js", ".json", ".node"} {
		alts = append(alts, m+e)
	}
	alts = append(alts, m+"/index.js", m+"/index.json", m+"/index.node")
	for _, a := range alts {
		f, r := c.coverPath(cmd, a, "the main of a folder required by "+name, a != m)
		c.followNode(cmd, f, r, depth)
	}
}

// nodeOptions covers the modules node loads before the script by its
// options: -r and --require (paths), --import, --loader and
// --experimental-loader (URLs), from the folder the call runs in, before
// a script or -e code. A package by name, and --env-file and
// --env-file-if-exists (which may set NODE_OPTIONS), are named.
func (c *coverage) nodeOptions(cmd *Command, call *shellcmd.Call, name string, depth int) {
	if call == nil {
		return
	}
	prog, script := shellcmd.ProgramOf(call.Args)
	if prog < 0 || shellcmd.LangOf(call.Args[prog].Text) != shellcmd.LangNode {
		return
	}
	end := len(call.Args)
	if script > 0 {
		end = script
	}
	for j := prog + 1; j < end; j++ {
		t := call.Args[j].Text
		opt, val, eq := strings.Cut(t, "=")
		switch opt {
		case "-r", "--require", "--import", "--loader", "--experimental-loader", "--env-file", "--env-file-if-exists":
		default:
			continue
		}
		if !eq {
			if j+1 >= end {
				break
			}
			j++
			val = call.Args[j].Text
			if !call.Args[j].Lit {
				addGaps(cmd, []string{fmt.Sprintf("%s is run with %s %s, known only when the command runs: what it loads that way is not fingerprinted", name, opt, schema.Visible(val))})
				continue
			}
		}
		if opt == "--env-file" || opt == "--env-file-if-exists" {
			addGaps(cmd, []string{fmt.Sprintf("%s is run with %s %s, whose NODE_OPTIONS may load code: what it loads that way is not fingerprinted", name, opt, schema.Visible(val))})
			continue
		}
		if call.Dir == "" {
			addGaps(cmd, []string{fmt.Sprintf("%s is run with %s %s in a folder known only when the command runs: what it loads that way is not fingerprinted", name, opt, schema.Visible(val))})
			continue
		}
		p, kind := nodeSpec(call.Dir, val, opt != "-r" && opt != "--require")
		switch kind {
		case specFile:
			c.nodeFile(cmd, p, name, depth)
		case specBuiltin, specRefused:
		default:
			addGaps(cmd, []string{fmt.Sprintf("%s is run with %s %s, a package or URL that is not fingerprinted", name, opt, schema.Visible(val))})
		}
	}
}
