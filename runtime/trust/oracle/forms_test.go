package oracle

import (
	"testing"
)

// payload is code planted outside .agents, where only what trust follows
// is covered.
const payload = "echo payload ran >&2; : planted-code-payload\n"

// forms are the ways of running code that a reader of commands has been
// fooled by: each must be covered or named.
func forms() []oracleCase {
	tools := func(extra map[string]string) map[string]string {
		m := map[string]string{"tools/payload.txt": payload}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	return []oracleCase{
		{name: "sh /dev/stdin", form: "sh /dev/stdin < f", files: tools(nil), command: "sh /dev/stdin < ../tools/payload.txt"},
		{name: "bash /dev/stdin", form: "sh /dev/stdin < f", files: tools(nil), command: "bash /dev/stdin < ../tools/payload.txt", needs: []string{"bash"}},
		{name: "dot /dev/stdin", form: ". /dev/stdin < f", files: tools(nil), command: ". /dev/stdin < ../tools/payload.txt"},
		{name: "sh /proc/self/fd/0", form: "sh /proc/self/fd/0 < f", files: tools(nil), command: "sh /proc/self/fd/0 < ../tools/payload.txt"},
		{name: "sh stdin", form: "sh < f", files: tools(nil), command: "sh < ../tools/payload.txt"},
		{name: "heredoc dot", form: "sh <<X holding . f", files: tools(nil), command: "sh <<X\n. ../tools/payload.txt\nX"},
		// /bin/sh (dash) does not parse <<<: the command as written runs
		// nothing, under bash -c it does.
		{name: "herestring dot", form: "bash <<< '. f'", files: tools(nil), command: "bash <<< '. ../tools/payload.txt'", needs: []string{"bash"}},
		{name: "herestring dot in bash -c", form: "bash <<< '. f'", files: tools(nil), command: `bash -c "bash <<< '. ../tools/payload.txt'"`, needs: []string{"bash"}},
		{
			name: "herestring dot in a script", form: "bash <<< '. f'", needs: []string{"bash"},
			files:   tools(map[string]string{"tools/gate.sh": "#!/bin/bash\nbash <<< '. ../tools/payload.txt'\n"}),
			command: "../tools/gate.sh",
		},
		{name: "exec 3< dot /dev/fd/3", form: "exec 3< f; . /dev/fd/3", files: tools(nil), command: "exec 3< ../tools/payload.txt; . /dev/fd/3"},
		{name: "cat pipe sh", form: "cat f | sh", files: tools(nil), command: "cat ../tools/payload.txt | sh"},
		{name: "xargs -a sh -c", form: "xargs -a f sh -c '{}'", files: tools(nil), command: "xargs -a ../tools/payload.txt sh -c '{}'"},
		{name: "xargs -a -I sh -c", form: "xargs -a f sh -c '{}'", files: tools(nil), command: "xargs -a ../tools/payload.txt -I{} sh -c '{}'"},
		{
			name: "esm query", form: `import "./a.mjs?v=1"`, needs: []string{"node"},
			files: map[string]string{
				"tools/main.mjs": "import \"./a.mjs?v=1\";\n",
				"tools/a.mjs":    "console.error(\"a ran\");\n",
			},
			command: "node ../tools/main.mjs",
		},
		{
			name: "esm percent", form: `import "./%62.mjs"`, needs: []string{"node"},
			files: map[string]string{
				"tools/main.mjs": "import \"./%62.mjs\";\n",
				"tools/b.mjs":    "console.error(\"b ran\");\n",
			},
			command: "node ../tools/main.mjs",
		},
		{
			name: "esm file url", form: `import "file:///..."`, needs: []string{"node"},
			files: map[string]string{
				"tools/main.mjs": "import \"file://{{ROOT}}/tools/c.mjs\";\n",
				"tools/c.mjs":    "console.error(\"c ran\");\n",
			},
			command: "node ../tools/main.mjs",
		},
		{
			name: "esm dynamic query", form: `await import("./f?x")`, needs: []string{"node"},
			files: map[string]string{
				"tools/main.mjs": "await import(\"./d.mjs?x\");\n",
				"tools/d.mjs":    "console.error(\"d ran\");\n",
			},
			command: "node ../tools/main.mjs",
		},
		{
			name: "perl require path", form: `perl require "../tools/lib.pl"`, needs: []string{"perl"},
			files: map[string]string{
				"tools/main.pl": "require \"../tools/lib.pl\";\nprint STDERR \"main ran\\n\";\n",
				"tools/lib.pl":  "print STDERR \"lib ran\\n\";\n1;\n",
			},
			command: "perl ../tools/main.pl",
		},
		{
			name: "ruby require_relative", form: "ruby require_relative", needs: []string{"ruby"},
			files: map[string]string{
				"tools/main.rb": "require_relative \"lib\"\n$stderr.puts \"main ran\"\n",
				"tools/lib.rb":  "$stderr.puts \"lib ran\"\n",
			},
			command: "ruby ../tools/main.rb",
		},
		{
			name: "awk @include", form: "awk @include", needs: []string{"gawk"},
			files: map[string]string{
				"tools/main.awk": "@include \"../tools/lib.awk\"\nBEGIN { print \"main ran\" > \"/dev/stderr\" }\n",
				"tools/lib.awk":  "BEGIN { print \"lib ran\" > \"/dev/stderr\" }\n",
			},
			command: "gawk -f ../tools/main.awk",
		},
		{
			name: "make include", form: "make include", needs: []string{"make"},
			files: map[string]string{
				"tools/Makefile": "include ../tools/rules.mk\nall:\n\t@echo main ran >&2\n",
				"tools/rules.mk": "$(info rules ran)\n",
			},
			command: "make -s -f ../tools/Makefile",
		},
		{
			name: "bare repository in .agents", form: "a bare repository planted in .agents under git status", needs: []string{"git"},
			files: map[string]string{
				".agents/HEAD":     "ref: refs/heads/main\n",
				".agents/objects/": "",
				".agents/refs/":    "",
				".agents/config":   "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n\tfsmonitor = tools/fsmon.sh\n",
				"tools/fsmon.sh":   "#!/bin/sh\necho fsmonitor ran >&2\n",
			},
			command: "git status --porcelain",
		},
		{
			name: "hookctl run --config", form: "hookctl run Stop --config ../tools/inner.json",
			files: map[string]string{
				"tools/inner.json": `{"inner": {"Stop": [{"command": "sh ./inner.sh"}]}}` + "\n",
				"tools/inner.sh":   "echo inner ran >&2\n",
			},
			command: "hookctl run Stop --config ../tools/inner.json",
		},
		{
			name: "hookctl test --contract --workspace", form: "hookctl test --contract --workspace ../sub",
			files: map[string]string{
				"sub/.agents/hooks.json": `{"inner": {"Stop": [{"command": "sh ../run/inner.sh"}]}}` + "\n",
				"sub/run/inner.sh":       "echo inner ran >&2\n",
			},
			command: "hookctl test --contract --workspace ../sub",
		},
		{
			name: "shebang relative interpreter", form: "#!../tools/interp",
			files: map[string]string{
				".agents/hooks/gate": "#!../tools/interp\necho gate ran >&2\n",
				"tools/interp":       "#!/bin/sh\nexec /bin/sh \"$@\"\n",
			},
			command: "./hooks/gate",
		},
		{
			name: "shebang argument", form: "#!/bin/sh ../payload.txt",
			files: map[string]string{
				".agents/hooks/gate": "#!/bin/sh ../tools/payload.txt\necho gate ran >&2\n",
				"tools/payload.txt":  payload,
			},
			command: "./hooks/gate",
		},
		{
			name: "python run directly", form: "#!/usr/bin/env python3 run directly", needs: []string{"python3"},
			files: map[string]string{
				"tools/gate.py":   "#!/usr/bin/env python3\nimport helper\n",
				"tools/helper.py": "import sys\nprint('helper ran', file=sys.stderr)\n",
			},
			command: "../tools/gate.py",
		},
	}
}

// moreForms are other ways of running code, beyond the ones a reader was
// known to miss; the long run alone takes the ones trust gets right.
func moreForms() []oracleCase {
	tools := func(extra map[string]string) map[string]string {
		m := map[string]string{"tools/payload.txt": payload}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	return []oracleCase{
		{
			name: "node dotdot after a link", form: "node l/../x.js: node takes .. off as text, the kernel after the link", needs: []string{"node"},
			files: map[string]string{
				"tools/deep/": "",
				"sub/l":       "@link:../tools/deep",
				"tools/x.js":  "console.error('what the kernel reads');\n",
				"sub/x.js":    "console.error('what node runs');\n",
			},
			command: "node ../sub/l/../x.js",
		},
		{
			long: true, name: "require dotdot after a link", form: "require(\"./l/../x\"): node takes .. off as text", needs: []string{"node"},
			files: map[string]string{
				"tools/deep/":   "",
				"tools/main.js": "require(\"../sub/l/../x\");\n",
				"sub/l":         "@link:../tools/deep",
				"tools/x.js":    "console.error('what the kernel reads');\n",
				"sub/x.js":      "console.error('what node runs');\n",
			},
			command: "node ../tools/main.js",
		},
		{
			name: "ruby load dotdot after a link", form: "ruby load \"l/../f\": ruby takes .. off as text", needs: []string{"ruby"},
			files: map[string]string{
				"tools/deep/": "",
				"sub/l":       "@link:../tools/deep",
				"tools/y.rb":  "$stderr.puts 'what the kernel reads'\n",
				"sub/y.rb":    "$stderr.puts 'what ruby runs'\n",
			},
			command: "ruby -e 'load \"../sub/l/../y.rb\"'",
		},
		{long: true, name: "sh -s stdin", form: "sh -s < f", files: tools(nil), command: "sh -s < ../tools/payload.txt"},
		{long: true, name: "stdin first", form: "< f sh", files: tools(nil), command: "< ../tools/payload.txt sh"},
		{long: true, name: "sh <&3", form: "sh <&3 3< f", files: tools(nil), command: "sh <&3 3< ../tools/payload.txt"},
		{name: "exec sh stdin", form: "exec 0< f; exec sh", files: tools(nil), command: "exec 0< ../tools/payload.txt; exec sh"},
		{name: "env sh /dev/stdin", form: "env sh /dev/stdin < f", files: tools(nil), command: "env sh /dev/stdin < ../tools/payload.txt"},
		{long: true, name: "timeout sh stdin", form: "timeout 5 sh < f", files: tools(nil), command: "timeout 5 sh < ../tools/payload.txt"},
		{name: "sh /dev/fd/0", form: "sh /dev/fd/0 < f", files: tools(nil), command: "sh /dev/fd/0 < ../tools/payload.txt"},
		{long: true, name: "process substitution", form: "source <(cat f)", files: tools(nil), command: `bash -c 'source <(cat ../tools/payload.txt)'`, needs: []string{"bash"}},
		{long: true, name: "sh -c cat pipe", form: "sh -c 'cat f | sh'", files: tools(nil), command: `sh -c 'cat ../tools/payload.txt | sh'`},
		{long: true, name: "eval cat", form: `eval "$(cat f)"`, files: tools(nil), command: `eval "$(cat ../tools/payload.txt)"`},
		{long: true, name: "sh -c cat", form: `sh -c "$(cat f)"`, files: tools(nil), command: `sh -c "$(cat ../tools/payload.txt)"`},
		{long: true, name: "copy then run", form: "cp f /tmp/x; sh /tmp/x", files: tools(nil), command: `t=$(mktemp) && cp ../tools/payload.txt "$t" && sh "$t"; rm -f "$t"`},
		{long: true, name: "glob", form: "sh ../tools/pay*.txt", files: tools(nil), command: "sh ../tools/pay*.txt"},
		{long: true, name: "default value", form: "sh ${X:-f}", files: tools(nil), command: "sh ${X:-../tools/payload.txt}"},
		{long: true, name: "bash dot from cwd", form: "bash -c '. f' finds f in the current folder after PATH", files: map[string]string{".agents/notes.txt": payload}, command: "bash -c '. notes.txt'", needs: []string{"bash"}},
		{long: true, name: "bash dot from cwd after cd", form: "bash -c '. f' finds f in the current folder after PATH", files: tools(nil), command: "cd ../tools && bash -c '. payload.txt'", needs: []string{"bash"}},
		{long: true, name: "BASH_ENV", form: "BASH_ENV=f bash -c :", files: tools(nil), command: "BASH_ENV=../tools/payload.txt bash -c :", needs: []string{"bash"}},
		{long: true, name: "ENV interactive", form: "ENV=f sh -i -c :", files: tools(nil), command: "ENV=../tools/payload.txt sh -i -c : </dev/null"},
		{long: true, name: "bash --rcfile", form: "bash --rcfile f -i", files: tools(nil), command: "bash --rcfile ../tools/payload.txt -i -c : </dev/null", needs: []string{"bash"}},
		{name: "env -S", form: "env -S 'sh f'", files: tools(nil), command: "env -S 'sh ../tools/payload.txt'"},
		{long: true, name: "link then dotdot", form: "sh link/../f, the link resolved first",
			files: map[string]string{
				".agents/deep":            "@link:../tools/deep",
				"tools/deep/":             "",
				"tools/payload.txt":       payload,
				".agents/payload.txt":     "echo decoy >&2\n",
				"tools/deep/unrelated.md": "notes\n",
			},
			command: "sh deep/../payload.txt",
		},
		{
			name: "env -S shebang", form: "#!/usr/bin/env -S sh f",
			files:   tools(map[string]string{".agents/hooks/gate": "#!/usr/bin/env -S sh ../tools/payload.txt\n"}),
			command: "./hooks/gate",
		},
		{
			long: true, name: "python stdin sys.path", form: "python3 <<X with sys.path and import", needs: []string{"python3"},
			files:   map[string]string{"tools/helper.py": "import sys\nprint('helper ran', file=sys.stderr)\n"},
			command: "python3 <<X\nimport sys\nsys.path.insert(0, '../tools')\nimport helper\nX",
		},
		{
			name: "python -c of a file's text", form: `python3 -c "$(cat f*)"`, needs: []string{"python3"},
			files:   map[string]string{"tools/x.py": "import sys\nprint('x ran', file=sys.stderr)\n"},
			command: `python3 -c "$(cat ../tools/x.p*)"`,
		},
		{
			name: "flock -c", form: "flock lock -c 'sh f'", files: map[string]string{"tools/payload.txt": payload}, needs: []string{"flock"},
			command: "flock ../tools/lock -c 'sh ../tools/payload.txt'",
		},
		{
			name: "script -c", form: "script -qc 'sh f' /dev/null", files: map[string]string{"tools/payload.txt": payload}, needs: []string{"script"},
			command: "script -qc 'sh ../tools/payload.txt' /dev/null </dev/null",
		},
		{
			name: "sed e", form: "sed 's/.*/sh f/e': GNU sed runs the pattern space", files: map[string]string{"tools/payload.txt": payload},
			command: "echo x | sed 's|.*|sh ../tools/payload.txt|e'",
		},
		{
			name: "sed e command", form: "sed 'e sh f': GNU sed runs a command", files: map[string]string{"tools/payload.txt": payload},
			command: "echo x | sed '1e sh ../tools/payload.txt'",
		},
		{
			name: "python exec open", form: `python3 -c "exec(open(f).read())"`, needs: []string{"python3"},
			files:   map[string]string{"tools/x.py": "import sys\nprint('x ran', file=sys.stderr)\n"},
			command: `python3 -c "exec(open('../tools/x.py').read())"`,
		},
		{
			name: "python builtins.exec", form: "python3 -c builtins.exec(open(f).read())", needs: []string{"python3"},
			files:   map[string]string{"tools/x.py": "import sys\nprint('x ran', file=sys.stderr)\n"},
			command: `python3 -c "import builtins; builtins.exec(open('../tools/x.py').read())"`,
		},
		{
			name: "python timeit", form: "python3 -c timeit.timeit(open(f).read())", needs: []string{"python3"},
			files:   map[string]string{"tools/x.py": "import sys\nprint('x ran', file=sys.stderr)\n"},
			command: `python3 -c "import timeit; timeit.timeit(open('../tools/x.py').read(), number=1)"`,
		},
		{
			name: "python chdir then import", form: "python3 -c 'os.chdir(d); import m'", needs: []string{"python3"},
			files:   map[string]string{"tools/x.py": "import sys\nprint('x ran', file=sys.stderr)\n"},
			command: `python3 -c "import os; os.chdir('../tools'); import x"`,
		},
		{
			name: "node indirect eval", form: "node: (0, eval)(fs.readFileSync(f))", needs: []string{"node"},
			files: map[string]string{
				"tools/main.js": "const fs = require('fs');\n(0, eval)(fs.readFileSync(__dirname + '/x.js', 'utf8'));\n",
				"tools/x.js":    "console.error('x ran');\n",
			},
			command: "node ../tools/main.js",
		},
		{
			name: "node vm by another name", form: "node: const v = require('node:vm'); v.runInThisContext(...)", needs: []string{"node"},
			files: map[string]string{
				"tools/main.js": "const v = require('node:vm');\nv.runInThisContext(require('fs').readFileSync(__dirname + '/x.js', 'utf8'));\n",
				"tools/x.js":    "console.error('x ran');\n",
			},
			command: "node ../tools/main.js",
		},
		{
			name: "node --env-file before -e", form: "node --env-file f -e code: f's NODE_OPTIONS loads code", needs: []string{"node"},
			files: map[string]string{
				"tools/env":    "NODE_OPTIONS=--require ../tools/pre.js\n",
				"tools/pre.js": "console.error('pre ran');\n",
			},
			command: "node --env-file ../tools/env -e 1",
		},
		{
			name: "node process.env NODE_OPTIONS", form: "node: process.env.NODE_OPTIONS = '--require f', then spawn node", needs: []string{"node"},
			files: map[string]string{
				"tools/main.js": "const cp = require('child_process');\nprocess.env.NODE_OPTIONS = '--require ../tools/pre.js';\ncp.spawnSync('node', ['-e', '1'], { stdio: 'inherit' });\n",
				"tools/pre.js":  "console.error('pre ran');\n",
			},
			command: "node ../tools/main.js",
		},
		{
			name: "python globals builtins", form: "python3 -c \"globals()['__builtins__'].exec(...)\"", needs: []string{"python3"},
			files:   map[string]string{"tools/x.py": "import sys\nprint('x ran', file=sys.stderr)\n"},
			command: `python3 -c "globals()['__builtins__'].exec(open('../tools/x.py').read())"`,
		},
		{
			name: "python standard library shadowed", form: "import subprocess beside a selectors.py, which subprocess imports", needs: []string{"python3"},
			files: map[string]string{
				"tools/gate.py":      "import subprocess\n",
				"tools/selectors.py": "import sys\nprint('selectors ran', file=sys.stderr)\n",
			},
			command: "python3 ../tools/gate.py",
		},
		{
			name: "python -c in a list", form: "subprocess.run(['python3', '-c', 'import m'], cwd=d)", needs: []string{"python3"},
			files: map[string]string{
				"tools/gate.py": "import subprocess\nsubprocess.run(['python3', '-c', 'import helper'], cwd='../lib')\n",
				"lib/helper.py": "import sys\nprint('helper ran', file=sys.stderr)\n",
			},
			command: "python3 ../tools/gate.py",
		},
		{
			name: "python runpy", form: "python3 -c runpy.run_path(f)", needs: []string{"python3"},
			files:   map[string]string{"tools/x.py": "import sys\nprint('x ran', file=sys.stderr)\n"},
			command: `python3 -c "import runpy; runpy.run_path('../tools/x.py')"`,
		},
		{
			long: true, name: "python folder main", form: "python3 folder/ runs folder/__main__.py", needs: []string{"python3"},
			files: map[string]string{
				"tools/app/__main__.py": "import helper\n",
				"tools/app/helper.py":   "import sys\nprint('helper ran', file=sys.stderr)\n",
			},
			command: "python3 ../tools/app",
		},
		{
			long: true, name: "python namespace package", form: "python3 x.py importing from a namespace package", needs: []string{"python3"},
			files: map[string]string{
				"tools/x.py":        "from ns import mod\n",
				"tools/ns/mod.py":   "import sys\nprint('mod ran', file=sys.stderr)\n",
				"tools/ns/other.md": "not code\n",
			},
			command: "python3 ../tools/x.py",
		},
		{
			long: true, name: "node require option", form: "node -r ../tools/pre.js x.js", needs: []string{"node"},
			files: map[string]string{
				"tools/x.js":   "console.error('x ran');\n",
				"tools/pre.js": "console.error('pre ran');\n",
			},
			command: "node -r ../tools/pre.js ../tools/x.js",
		},
		{
			long: true, name: "node import option", form: "node --import ../tools/pre.mjs x.js", needs: []string{"node"},
			files: map[string]string{
				"tools/x.js":    "console.error('x ran');\n",
				"tools/pre.mjs": "console.error('pre ran');\n",
			},
			command: "node --import ../tools/pre.mjs ../tools/x.js",
		},
		{
			long: true, name: "node require argv", form: "node -e 'require(process.argv[1])' f", needs: []string{"node"},
			files:   map[string]string{"tools/x.js": "console.error('x ran');\n"},
			command: "node -e 'require(require(\"path\").resolve(process.argv[1]))' ../tools/x.js",
		},
		{
			long: true, name: "node stdin", form: "node < f", needs: []string{"node"},
			files:   map[string]string{"tools/x.js": "console.error('x ran');\n"},
			command: "node < ../tools/x.js",
		},
		{
			name: "node package type", form: "node x.js reads package.json beside it", needs: []string{"node"},
			files: map[string]string{
				"tools/x.js":         "console.error('x ran');\n",
				"tools/package.json": `{"type": "commonjs"}` + "\n",
			},
			command: "node ../tools/x.js",
		},
		{
			name: "python subprocess list", form: "subprocess.run([\"sh\", f]) in Python", needs: []string{"python3"},
			files:   tools(map[string]string{"tools/gate.py": "import subprocess as sp\nsp.run(['sh', '../tools/payload.txt'], check=True)\n"}),
			command: "python3 ../tools/gate.py",
		},
		{
			name: "python os.execv", form: "os.execv(\"/bin/sh\", [\"sh\", f]) in Python", needs: []string{"python3"},
			files:   tools(map[string]string{"tools/gate.py": "from os import execv\nexecv('/bin/sh', ['sh', '../tools/payload.txt'])\n"}),
			command: "python3 ../tools/gate.py",
		},
		{
			name: "python os.system", form: "os.system(\"sh f\") in Python", needs: []string{"python3"},
			files:   tools(map[string]string{"tools/gate.py": "import os as o\no.system('sh ../tools/payload.txt')\n"}),
			command: "python3 ../tools/gate.py",
		},
		{
			name: "python computed program", form: "subprocess.run([a program read from a file, f]) in Python", needs: []string{"python3"},
			files: tools(map[string]string{
				"tools/gate.py":  "import subprocess\nprog = open('../tools/list.txt').read().strip()\nsubprocess.run([prog, '../tools/payload.txt'])\n",
				"tools/list.txt": "sh\n",
			}),
			data:    []string{"tools/list.txt"}, // the program's name, read as text
			command: "python3 ../tools/gate.py",
		},
		{
			name: "python os.system aliased", form: "from os import system as s; s(a command read from a file)", needs: []string{"python3"},
			files: tools(map[string]string{
				"tools/gate.py":  "from os import system as s\ns(open('../tools/list.txt').read())\n",
				"tools/list.txt": "sh ../tools/payload.txt\n",
			}),
			data:    []string{"tools/list.txt"}, // the command, read as text
			command: "python3 ../tools/gate.py",
		},
		{
			name: "node child_process spawn", form: "spawnSync(\"sh\", [f]) in JavaScript", needs: []string{"node"},
			files:   tools(map[string]string{"tools/gate.js": "const { spawnSync: run } = require('node:child_process');\nrun('sh', ['../tools/payload.txt'], { stdio: 'inherit' });\n"}),
			command: "node ../tools/gate.js",
		},
		{
			name: "node child_process computed", form: "execFileSync(\"sh\", [a path read from a file]) in JavaScript", needs: []string{"node"},
			files: tools(map[string]string{
				"tools/gate.js":  "const cp = require('child_process');\nconst p = require('fs').readFileSync('../tools/list.txt', 'utf8').trim();\ncp.execFileSync('sh', [p], { stdio: 'inherit' });\n",
				"tools/list.txt": "../tools/payload.txt\n",
			}),
			data:    []string{"tools/list.txt"}, // the script's path, read as text
			command: "node ../tools/gate.js",
		},
		{
			name: "node child_process taken as a value", form: "const run = cp.execFileSync; run(\"sh\", [f])", needs: []string{"node"},
			files:   tools(map[string]string{"tools/gate.mjs": "import * as cp from 'node:child_process';\nconst run = cp.execFileSync;\nrun('sh', ['../tools/payload.txt'], { stdio: 'inherit' });\n"}),
			command: "node ../tools/gate.mjs",
		},
		{
			name: "perl system", form: "system(\"sh\", f) in Perl", needs: []string{"perl"},
			files:   tools(map[string]string{"tools/gate.pl": "system('sh', '../tools/payload.txt');\n"}),
			command: "perl ../tools/gate.pl",
		},
		{
			name: "ruby backticks", form: "`sh f` in Ruby", needs: []string{"ruby"},
			files:   tools(map[string]string{"tools/gate.rb": "$stderr.print `sh ../tools/payload.txt 2>&1`\n"}),
			command: "ruby ../tools/gate.rb",
		},
		{
			name: "awk system", form: "system(\"sh f\") in awk", needs: []string{"gawk"},
			files:   tools(map[string]string{"tools/gate.awk": "BEGIN { system(\"sh ../tools/payload.txt\") }\n"}),
			command: "gawk -f ../tools/gate.awk",
		},
		{
			name: "sh sourced variable", form: ". config.sh; $TOOL, with TOOL assigned in config.sh",
			files: tools(map[string]string{
				"tools/gate.sh":   ". ../tools/config.sh\n$TOOL\n",
				"tools/config.sh": "TOOL='sh ../tools/payload.txt'\n",
			}),
			command: "sh ../tools/gate.sh",
		},
		{
			name: "sh computed program", form: "p=$(cat list); $p",
			files:   tools(map[string]string{"tools/list.txt": "sh ../tools/payload.txt\n"}),
			data:    []string{"tools/list.txt"}, // the command, read as text
			command: "p=$(cat ../tools/list.txt); $p",
		},
		{
			name: "perl use lib", form: "perl: use lib and use Module", needs: []string{"perl"},
			files: map[string]string{
				"tools/x.pl":          "use lib '../tools/lib';\nuse Helper;\n",
				"tools/lib/Helper.pm": "package Helper;\nprint STDERR \"helper ran\\n\";\n1;\n",
			},
			command: "perl ../tools/x.pl",
		},
		{
			name: "perl -I -M", form: "perl -I dir -MModule", needs: []string{"perl"},
			files:   map[string]string{"tools/lib/Helper.pm": "package Helper;\nprint STDERR \"helper ran\\n\";\n1;\n"},
			command: "perl -I../tools/lib -MHelper -e 1",
		},
		{
			name: "perl do", form: "perl -e 'do f'", needs: []string{"perl"},
			files:   map[string]string{"tools/lib.pl": "print STDERR \"lib ran\\n\";\n1;\n"},
			command: "perl -e 'do \"../tools/lib.pl\"'",
		},
		{
			long: true, name: "perl stdin", form: "perl < f", needs: []string{"perl"},
			files:   map[string]string{"tools/x.pl": "print STDERR \"x ran\\n\";\n"},
			command: "perl < ../tools/x.pl",
		},
		{
			name: "ruby load", form: "ruby -e 'load f'", needs: []string{"ruby"},
			files:   map[string]string{"tools/lib.rb": "$stderr.puts 'lib ran'\n"},
			command: "ruby -e 'load \"../tools/lib.rb\"'",
		},
		{
			name: "ruby -I -r", form: "ruby -I dir -r lib", needs: []string{"ruby"},
			files:   map[string]string{"tools/lib/helper.rb": "$stderr.puts 'helper ran'\n"},
			command: "ruby -I../tools/lib -rhelper -e 1",
		},
		{
			name: "ruby require cwd", form: "ruby require './lib' from the current folder", needs: []string{"ruby"},
			files: map[string]string{
				"tools/x.rb":   "require './lib'\n",
				"tools/lib.rb": "$stderr.puts 'lib ran'\n",
			},
			command: "cd ../tools && ruby x.rb",
		},
		{
			long: true, name: "awk -f", form: "awk -f f", needs: []string{"gawk"},
			files:   map[string]string{"tools/prog.awk": "BEGIN { print \"prog ran\" > \"/dev/stderr\" }\n"},
			command: "awk -f ../tools/prog.awk",
		},
		{
			long: true, name: "sed e command", form: "sed -f f with GNU sed's e command",
			files:   map[string]string{"tools/run.sed": "1e echo sed ran >&2\n"},
			command: "echo x | sed -f ../tools/run.sed >/dev/null",
		},
		{
			long: true, name: "make -C", form: "make -C dir reads its Makefile", needs: []string{"make"},
			files:   map[string]string{"tools/Makefile": "all:\n\t@echo make ran >&2\n"},
			command: "make -s -C ../tools",
		},
		{
			name: "git repository at the root", form: "git in a workspace whose .git/config holds core.fsmonitor", needs: []string{"git"},
			files: map[string]string{
				".git/HEAD":      "ref: refs/heads/main\n",
				".git/objects/":  "",
				".git/refs/":     "",
				".git/config":    "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = tools/fsmon.sh\n",
				"tools/fsmon.sh": "#!/bin/sh\necho fsmonitor ran >&2\n",
			},
			command: "git status --porcelain",
		},
		{
			name: "git alias", form: "git in a workspace whose .git/config holds an alias", needs: []string{"git"},
			files: map[string]string{
				".git/HEAD":         "ref: refs/heads/main\n",
				".git/objects/":     "",
				".git/refs/":        "",
				".git/config":       "[core]\n\trepositoryformatversion = 0\n[alias]\n\tst = !sh tools/payload.txt\n",
				"tools/payload.txt": payload,
			},
			command: "git st",
		},
		{
			name: "export from a file", form: "export $(cat f | xargs); prog", files: tools(map[string]string{
				"tools/env":         "PATH=../tools/bin:/usr/bin:/bin\n",
				"tools/bin/payload": "#!/bin/sh\n" + payload,
			}),
			command: "export $(cat ../tools/env | xargs); payload",
		},
		{
			name: "git -c alias", form: "git -c alias.x='!sh f' x", needs: []string{"git"}, files: tools(nil),
			command: "git -c alias.x='!sh ../tools/payload.txt' x",
		},
		{
			name: "env -C", form: "env -C dir sh f", files: tools(nil),
			command: "env -C ../tools sh payload.txt",
		},
		{
			name: "HOME for a login shell", form: "HOME=dir bash -lc true reads dir/.bash_profile", needs: []string{"bash"},
			files:   tools(map[string]string{"tools/.bash_profile": payload}),
			command: "HOME=../tools bash -lc true",
		},
		{
			long: true, name: "find -exec sh", form: "find dir -name f -exec sh {} ;", files: tools(nil),
			command: "find ../tools -name payload.txt -exec sh {} \\;",
		},
		{
			long: true, name: "subshell cd", form: "(cd dir && sh f)", files: tools(nil),
			command: "(cd ../tools && sh payload.txt)",
		},
		{
			long: true, name: "function", form: "f() { sh f; }; f", files: tools(nil),
			command: "f() { sh ../tools/payload.txt; }; f",
		},
		{
			long: true, name: "command substitution dot", form: "x=$(. f)", files: tools(nil),
			command: "x=$(. ../tools/payload.txt)",
		},
	}
}

func TestForms(t *testing.T) {
	needStrace(t)
	need(t, "sh")
	for _, c := range append(forms(), moreForms()...) {
		if c.long && !long {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			need(t, c.needs...)
			r := c.run(t)
			report(t, c, r, knownFailures)
		})
	}
}

// knownFailures are the files the oracle finds run and that trust neither
// covers nor names, by case and file (see knownKey), each with the form
// of running code it is about: the list shrinks as the readers learn.
// "(Not covered)" is a template's review that names something not
// covered, which none may.
var knownFailures = map[string]string{
	// A command that env -S splits.
	"env -S: tools/payload.txt": "env -S 'sh f'",
	// JavaScript.
	"node dotdot after a link: sub/x.js":    "node l/../x.js: node takes .. off as text, trust after the link",
	"node package type: tools/package.json": "node x.js reads the package.json beside it (type, imports)",
	// git in the workspace's own repository, whose .git/config no clone
	// or pull writes (trust.md, git).
	"git repository at the root: .git/config":    "git in a workspace whose .git/config sets core.fsmonitor",
	"git repository at the root: tools/fsmon.sh": "git in a workspace whose .git/config sets core.fsmonitor",
	"git alias: .git/config":                     "git in a workspace whose .git/config holds an alias",
	"git alias: tools/payload.txt":               "git in a workspace whose .git/config holds an alias",
	// Templates: project-context runs git in the workspace's repository,
	// whose .git/config no clone writes.
	"template project-context/py: .git/config":   "git run by a template in the workspace's repository",
	"template project-context/node: .git/config": "git run by a template in the workspace's repository",
	"template project-context/sh: .git/config":   "git run by a template in the workspace's repository",
}
