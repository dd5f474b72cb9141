package trust

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
)

// Marks, in each language, of a file that runs: it prints MARK: and its
// path from the workspace root on stderr.
func shMark(rel string) string   { return "echo MARK:" + rel + " >&2\n" }
func pyMark(rel string) string   { return "import sys; print('MARK:" + rel + "', file=sys.stderr)\n" }
func jsMark(rel string) string   { return "console.error('MARK:" + rel + "');\n" }
func plMark(rel string) string   { return "print STDERR \"MARK:" + rel + "\\n\";\n" }
func rbMark(rel string) string   { return "$stderr.puts 'MARK:" + rel + "'\n" }
func awkMark(rel string) string  { return "BEGIN { print \"MARK:" + rel + "\" > \"/dev/stderr\" }\n" }
func makeMark(rel string) string { return "$(info MARK:" + rel + ")\n" }

// ranIn runs command as hookctl run runs a handler (sh -c in .agents, with
// $HOOKCTL_WORKSPACE, the payload on stdin, a home of its own) and returns
// the files, from the workspace root, that printed their mark.
func ranIn(t *testing.T, root, command string) ([]string, string) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Dir = filepath.Join(root, ".agents")
	cmd.Env = append(os.Environ(), "HOOKCTL_WORKSPACE="+root, "HOME="+t.TempDir())
	cmd.Stdin = strings.NewReader(`{"toolCall": {"name": "run_command"}}`)
	out, _ := cmd.CombinedOutput()
	var ran []string
	for _, l := range strings.Split(string(out), "\n") {
		if m, ok := strings.CutPrefix(l, "MARK:"); ok && !slices.Contains(ran, m) {
			ran = append(ran, m)
		}
	}
	return ran, string(out)
}

// need skips a test whose interpreter is missing, and fails it under
// HOOKCTL_CI=1, where every one must be there.
func need(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		testenv.Need(t, tool)
	}
}

// langCase is a workspace whose one Stop hook runs command: the files it
// holds ($ROOT stands for the workspace root), what the trust must cover,
// and a gap it must name ("" for none of any script's).
type langCase struct {
	name, command string
	tools         []string
	files         map[string]string
	links         map[string]string // link: its target
	covered       []string
	gap           string
}

// oneHook writes a workspace whose hooks.json has one Stop handler running
// command, with files ($ROOT in them stands for the workspace root) and
// links (each to its target), and returns its root and snapshot.
func oneHook(t *testing.T, command string, files, links map[string]string) (string, *Snapshot) {
	t.Helper()
	root, err := Key(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for rel, content := range files {
		write(t, root, rel, strings.ReplaceAll(content, "$ROOT", root))
	}
	for link, target := range links {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, link)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	write(t, root, HooksFile, `{"h": {"Stop": [{"command": `+quote(command)+`}]}}`)
	snap := take(t, root)
	if snap.Refused != "" || len(snap.Commands) != 1 {
		t.Fatalf("refused %q, %d commands", snap.Refused, len(snap.Commands))
	}
	return root, snap
}

// checkLang takes the workspace's snapshot, runs its command for real,
// and checks that every file that ran is covered, or a gap names what
// the reading could not follow, and what the case asks.
func checkLang(t *testing.T, tc langCase) {
	need(t, tc.tools...)
	root, snap := oneHook(t, tc.command, tc.files, tc.links)
	cmd := snap.Commands[0]
	var covered []string
	for _, f := range snap.Files {
		if f.State == Present {
			covered = append(covered, f.Path)
		}
	}
	gaps := strings.Join(cmd.Gaps, "\n")
	ran, out := ranIn(t, root, tc.command)
	if len(ran) == 0 {
		t.Fatalf("nothing ran:\n%s", out)
	}
	for _, f := range ran {
		if !slices.Contains(covered, f) && gaps == "" {
			t.Errorf("%s ran, but is neither covered nor named: covered %q\n%s", f, covered, out)
		}
	}
	for _, f := range tc.covered {
		if !slices.Contains(covered, f) {
			t.Errorf("%s is not covered: %q", f, covered)
		}
	}
	if tc.gap == "" && gaps != "" || !strings.Contains(gaps, tc.gap) {
		t.Errorf("gaps %q, want %q", cmd.Gaps, tc.gap)
	}
	if tc.gap == "" && len(cmd.Outside) > 0 {
		t.Errorf("named outside the workspace: %q", cmd.Outside)
	}
}

// A file started as a program is read as the kernel runs it: by the
// program its #! line names, with the interpreter and every path on the
// line covered like the file.
func TestTheHashbangLineDecides(t *testing.T) {
	for _, tc := range []langCase{
		{name: "a Python script with a docstring", command: "../tools/gate.py", tools: []string{"python3"}, files: map[string]string{
			"tools/gate.py":   "#!/usr/bin/env python3\n\"\"\"gate: a gate.\n\nIt says\n  deny       when (it must)\n\"\"\"\nimport helper\n" + pyMark("tools/gate.py"),
			"tools/helper.py": pyMark("tools/helper.py"),
		}, covered: []string{"tools/gate.py", "tools/helper.py"}},
		{name: "a Node script with comments", command: "../tools/gate.mjs", tools: []string{"node"}, files: map[string]string{
			"tools/gate.mjs": "#!/usr/bin/env node\n// reads / and (the rest)\n/* a block: / */\nimport './lib.mjs';\n" + jsMark("tools/gate.mjs"),
			"tools/lib.mjs":  jsMark("tools/lib.mjs"),
		}, covered: []string{"tools/lib.mjs"}},
		{name: "a file on the line", command: "../tools/gate", files: map[string]string{
			"tools/gate":        "#!/bin/sh ../tools/payload.txt\n" + shMark("tools/gate"),
			"tools/payload.txt": shMark("tools/payload.txt") + ". ../tools/lib.sh\n",
			"tools/lib.sh":      shMark("tools/lib.sh"),
		}, covered: []string{"tools/payload.txt", "tools/lib.sh"}},
		{name: "a file on an env -S line", command: "../tools/gate", files: map[string]string{
			"tools/gate":        "#!/usr/bin/env -S sh ../tools/payload.txt\n" + shMark("tools/gate"),
			"tools/payload.txt": shMark("tools/payload.txt") + ". ../tools/lib.sh\n",
			"tools/lib.sh":      shMark("tools/lib.sh"),
		}, covered: []string{"tools/payload.txt", "tools/lib.sh"}},
		{name: "an interpreter by a relative path", command: "../tools/gate", files: map[string]string{
			"tools/gate":   "#!../tools/interp\n" + shMark("tools/gate"),
			"tools/interp": "#!/bin/sh\n" + shMark("tools/interp") + ". \"$1\"\n",
		}, covered: []string{"tools/interp"}, gap: "tools/gate:1 is started by its #! line (#!../tools/interp), whose program hookctl does not read"},
		{name: "an option of the shell", command: "../tools/gate", files: map[string]string{
			"tools/gate":   "#!/bin/sh -x\n" + shMark("tools/gate") + ". \"$(dirname \"$0\")/lib.sh\"\n",
			"tools/lib.sh": shMark("tools/lib.sh"),
		}, covered: []string{"tools/lib.sh"}},
		{name: "bash through env", command: "../tools/gate", tools: []string{"bash"}, files: map[string]string{
			"tools/gate":   "#!/usr/bin/env bash\n" + shMark("tools/gate") + "source \"$(dirname \"${BASH_SOURCE[0]}\")/lib.sh\"\n",
			"tools/lib.sh": shMark("tools/lib.sh"),
		}, covered: []string{"tools/lib.sh"}},
		{name: "an interactive shell", command: "../tools/gate", tools: []string{"bash"}, files: map[string]string{
			"tools/gate":   "#!/bin/bash -i\n" + shMark("tools/gate") + ". \"$(dirname \"$0\")/lib.sh\"\n",
			"tools/lib.sh": shMark("tools/lib.sh"),
		}, gap: "tools/gate:3 sources a file named only when the script runs"},
		{name: "perl, with -I on its line", command: "../tools/gate.pl", tools: []string{"perl"}, files: map[string]string{
			"tools/gate.pl":     "#!/usr/bin/perl -I../lib\nuse strict;\nuse Gate::Rules;\n" + plMark("tools/gate.pl"),
			"lib/Gate/Rules.pm": "package Gate::Rules;\n" + plMark("lib/Gate/Rules.pm") + "1;\n",
		}, covered: []string{"lib/Gate/Rules.pm"}},
		{name: "gawk -f on its line", command: "../tools/gate.awk", tools: []string{"gawk"}, files: map[string]string{
			"tools/gate.awk": "#!/usr/bin/gawk -f\n@include \"../lib/inc.awk\"\n" + awkMark("tools/gate.awk"),
			"lib/inc.awk":    awkMark("lib/inc.awk"),
		}, covered: []string{"tools/gate.awk", "lib/inc.awk"}},
		{name: "no #! line: the shell reads it", command: "../tools/gate", files: map[string]string{
			"tools/gate":   shMark("tools/gate") + ". ../tools/lib.sh\n",
			"tools/lib.sh": shMark("tools/lib.sh"),
		}, covered: []string{"tools/lib.sh"}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkLang(t, tc) })
	}
}

// A file handed to perl whose #! line names another program is run by
// that program: perl execs it.
func TestPerlRunsTheProgramOfTheHashbangLine(t *testing.T) {
	checkLang(t, langCase{command: "perl ../tools/gate", tools: []string{"perl"}, files: map[string]string{
		"tools/gate":   "#!/bin/sh\n" + shMark("tools/gate") + ". ../tools/lib.sh\n",
		"tools/lib.sh": shMark("tools/lib.sh"),
	}, gap: "perl runs in its place"})
}

// ES module specifiers are URLs: a query and a fragment are dropped, they
// are percent-decoded, and file: URLs name absolute paths. Each file node
// loads is covered, checked against node.
func TestNodeReadsSpecifiersAsURLs(t *testing.T) {
	checkLang(t, langCase{command: "node ../tools/gate.mjs", tools: []string{"node"}, files: map[string]string{
		"tools/gate.mjs": "import './a.mjs?v=1';\nimport \"./%62.mjs\";\nimport './c.mjs#frag';\nimport 'file://$ROOT/tools/d.mjs';\n" +
			"import './sub/.%2e/e.mjs';\nimport \"./a b.mjs\";\nawait import('./f?x');\nexport { x } from './g.mjs?y';\nawait import(\n  './h.mjs'\n);\n" + jsMark("tools/gate.mjs"),
		"tools/a.mjs":   jsMark("tools/a.mjs"),
		"tools/b.mjs":   jsMark("tools/b.mjs"),
		"tools/c.mjs":   jsMark("tools/c.mjs"),
		"tools/d.mjs":   jsMark("tools/d.mjs"),
		"tools/e.mjs":   jsMark("tools/e.mjs"),
		"tools/a b.mjs": jsMark("tools/a b.mjs"),
		"tools/f":       jsMark("tools/f"),
		"tools/g.mjs":   "export const x = 1;\n" + jsMark("tools/g.mjs"),
		"tools/h.mjs":   jsMark("tools/h.mjs"),
	}, covered: []string{"tools/a.mjs", "tools/b.mjs", "tools/c.mjs", "tools/d.mjs", "tools/e.mjs", "tools/a b.mjs", "tools/f", "tools/g.mjs", "tools/h.mjs"}})
}

// require() takes its specifier as a path: "./x.js?v=1" is a file of that
// name, and node's own options load modules before the script.
func TestNodeRequiresPathsAndPreloads(t *testing.T) {
	checkLang(t, langCase{command: "node -r ../tools/pre.js --import=../tools/pre.mjs ../tools/gate.cjs", tools: []string{"node"}, files: map[string]string{
		"tools/gate.cjs":   "require('./lib.js?v=1');\nrequire('/$ROOT/tools/abs');\n" + jsMark("tools/gate.cjs"),
		"tools/lib.js?v=1": jsMark("tools/lib.js?v=1"),
		"tools/lib.js":     jsMark("tools/lib.js"),
		"tools/abs.js":     jsMark("tools/abs.js"),
		"tools/pre.js":     jsMark("tools/pre.js"),
		"tools/pre.mjs":    jsMark("tools/pre.mjs"),
	}, covered: []string{"tools/lib.js?v=1", "tools/abs.js", "tools/pre.js", "tools/pre.mjs"}})
}

// Perl: use and require of a module look in @INC, whose workspace folders
// come from -I and use lib (from the folder perl runs in), .pmc before
// .pm; require and do of "./x" or "../x" take the path from there.
func TestPerlLoadsAreFollowed(t *testing.T) {
	checkLang(t, langCase{command: "perl -I../lib ../tools/gate.pl", tools: []string{"perl"}, files: map[string]string{
		"tools/gate.pl":   "use strict;\nuse lib '../more', \"../other\";\nuse Gate::A;\nrequire Gate::B;\nrequire \"../tools/c.pl\";\ndo './d.pl';\nuse parent -norequire, 'Foo';\nuse base qw(Gate::E);\n" + plMark("tools/gate.pl"),
		"lib/Gate/A.pm":   "package Gate::A;\n" + plMark("lib/Gate/A.pm") + "1;\n",
		"more/Gate/B.pmc": "package Gate::B;\n" + plMark("more/Gate/B.pmc") + "1;\n",
		"more/Gate/B.pm":  "package Gate::B;\n" + plMark("more/Gate/B.pm") + "1;\n",
		"tools/c.pl":      plMark("tools/c.pl") + "1;\n",
		".agents/d.pl":    plMark(".agents/d.pl") + "1;\n",
		"other/Gate/E.pm": "package Gate::E;\nuse Gate::F;\n" + plMark("other/Gate/E.pm") + "1;\n",
		"lib/Gate/F.pm":   "package Gate::F;\n" + plMark("lib/Gate/F.pm") + "1;\n",
	}, covered: []string{"lib/Gate/A.pm", "more/Gate/B.pmc", "tools/c.pl", ".agents/d.pl", "other/Gate/E.pm", "lib/Gate/F.pm"}})
}

// What a Perl script loads by a name known only when it runs is named at
// its line.
func TestPerlDynamicLoadsAreNamed(t *testing.T) {
	namedAt(t, "tools/gate.pl", "perl ../tools/gate.pl", map[string]string{
		"my $m = 'X';\nrequire $m;\n":      "gate.pl:2 require loads",
		"use lib \"$ENV{HOME}/lib\";\n":    "gate.pl:1 adds to @INC",
		"eval \"use X\";\n":                "gate.pl:1 runs code from a string",
		"BEGIN { unshift @INC, '../x' }\n": "gate.pl:1 runs code from a string, changes @INC",
		"my $f = '../x.pl';\ndo $f;\n":     "gate.pl:2 do loads",
		"use Module::Load;\nload 'X';\n":   "gate.pl:1",
		"require \"../tools/$name.pl\";\n": "gate.pl:1 require loads",
	}, nil)
}

// Ruby: require_relative from the file's folder (its links resolved),
// require and load of ./ and ../ from the folder ruby runs in, require of a
// name in the -I folders (of the command or the #! line), -r first.
func TestRubyLoadsAreFollowed(t *testing.T) {
	checkLang(t, langCase{command: "ruby -I../lib ../tools/gate.rb", tools: []string{"ruby"}, files: map[string]string{
		"tools/gate.rb": "#!/usr/bin/env ruby -r../pre/first\nrequire_relative 'rel'\nrequire '../other/b'\nload '../other/c.rb'\nrequire 'in_lib'\nautoload :Foo, '../other/auto'\nFoo\n" + rbMark("tools/gate.rb"),
		"tools/rel.rb":  rbMark("tools/rel.rb"),
		"other/b.rb":    rbMark("other/b.rb"),
		"other/c.rb":    rbMark("other/c.rb"),
		"lib/in_lib.rb": "require 'deeper'\n" + rbMark("lib/in_lib.rb"),
		"lib/deeper.rb": rbMark("lib/deeper.rb"),
		"other/auto.rb": "module Foo; end\n" + rbMark("other/auto.rb"),
		"pre/first.rb":  rbMark("pre/first.rb"),
	}, covered: []string{"tools/rel.rb", "other/b.rb", "other/c.rb", "lib/in_lib.rb", "lib/deeper.rb", "other/auto.rb", "pre/first.rb"}})
}

// What a Ruby script loads by a name known only when it runs is named at
// its line.
func TestRubyDynamicLoadsAreNamed(t *testing.T) {
	namedAt(t, "tools/gate.rb", "ruby ../tools/gate.rb", map[string]string{
		"require \"#{__dir__}/x\"\n":   "gate.rb:1 require loads",
		"$LOAD_PATH.unshift '../x'\n":  "gate.rb:1 runs code from a string, changes $LOAD_PATH",
		"name = 'x'\nrequire name\n":   "gate.rb:2 require loads",
		"eval(File.read('../x.rb'))\n": "gate.rb:1 runs code from a string",
		"require 'bundler/setup'\n":    "gate.rb:1",
		"send(:require, 'x')\n":        "gate.rb:1",
		"Kernel.load(ARGV[0])\n":       "gate.rb:1 load loads",
	}, nil)
}

// gawk: -f and -i files, @include from the folder awk runs in (name, then
// name.awk), in a file or in the program text of the command.
func TestAwkIncludesAreFollowed(t *testing.T) {
	checkLang(t, langCase{command: "gawk -i ../lib/first -f ../tools/gate.awk </dev/null && gawk '@include \"../lib/inline\"' </dev/null", tools: []string{"gawk"}, files: map[string]string{
		"tools/gate.awk":    "@include \"../lib/inc.awk\"\n@include \"local\"\n" + awkMark("tools/gate.awk"),
		"lib/inc.awk":       awkMark("lib/inc.awk"),
		".agents/local.awk": awkMark(".agents/local.awk"),
		"lib/first.awk":     awkMark("lib/first.awk"),
		"lib/inline.awk":    awkMark("lib/inline.awk"),
	}, covered: []string{"tools/gate.awk", "lib/inc.awk", ".agents/local.awk", "lib/first.awk", "lib/inline.awk"}})
}

// make: its makefile (-f, or Makefile where -C leads) and what it
// includes are covered; make itself is named, as it runs recipes it
// builds as it runs.
func TestMakeIncludesAreFollowed(t *testing.T) {
	checkLang(t, langCase{command: "make -s -C ../build && make -s -f ../tools/x.mk", tools: []string{"make"}, files: map[string]string{
		"build/Makefile": "include ../lib/inc.mk\n-include ../lib/opt.mk\nall:\n\t@:\n" + makeMark("build/Makefile"),
		"lib/inc.mk":     makeMark("lib/inc.mk"),
		"lib/opt.mk":     makeMark("lib/opt.mk"),
		"tools/x.mk":     "include ../lib/other.mk\nall:\n\t@:\n",
		"lib/other.mk":   makeMark("lib/other.mk"),
	}, covered: []string{"build/Makefile", "lib/inc.mk", "lib/opt.mk", "tools/x.mk", "lib/other.mk"}, gap: "runs the project's own scripts or packages (make)"})
}

// A PHP script's includes are named, not followed.
func TestPHPIncludesAreNamed(t *testing.T) {
	root, err := Key(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, "tools/gate.php", "<?php\necho 'hi';\nrequire_once __DIR__ . '/lib.php';\ninclude 'x.php';\n")
	write(t, root, HooksFile, `{"h": {"Stop": [{"command": "php ../tools/gate.php"}]}}`)
	gaps := strings.Join(take(t, root).Commands[0].Gaps, "\n")
	for _, want := range []string{"gate.php:3 loads a PHP file", "gate.php:4 loads a PHP file"} {
		if !strings.Contains(gaps, want) {
			t.Errorf("gaps %q, want %q", gaps, want)
		}
	}
}

// Python's imports are read from its statements as Python splits them:
// several on a line, after the colon of a compound statement, in brackets
// over several lines, after a backslash; a docstring's text is no import.
func TestPythonStatementsAreRead(t *testing.T) {
	checkLang(t, langCase{command: "python3 ../tools/gate.py", tools: []string{"python3"}, files: map[string]string{
		"tools/gate.py":         "\"\"\"gate.\n\nimport nothere\n\"\"\"\nimport a; import b\ntry: import c\nexcept ImportError: pass\nfrom pkg import (\n    d,\n    e,\n)\nif True: import f\nimport g as gg, \\\n    h\nx = {'k': 1}; import i\n" + pyMark("tools/gate.py"),
		"tools/a.py":            pyMark("tools/a.py"),
		"tools/b.py":            pyMark("tools/b.py"),
		"tools/c.py":            pyMark("tools/c.py"),
		"tools/pkg/__init__.py": "",
		"tools/pkg/d.py":        pyMark("tools/pkg/d.py"),
		"tools/pkg/e.py":        pyMark("tools/pkg/e.py"),
		"tools/f.py":            pyMark("tools/f.py"),
		"tools/g.py":            pyMark("tools/g.py"),
		"tools/h.py":            pyMark("tools/h.py"),
		"tools/i.py":            pyMark("tools/i.py"),
	}, covered: []string{"tools/a.py", "tools/b.py", "tools/c.py", "tools/pkg/d.py", "tools/pkg/e.py", "tools/f.py", "tools/g.py", "tools/h.py", "tools/i.py"}})
}

// What Python runs from a string or hands to a shell is named at its line,
// a # in a string before it too.
func TestPythonDynamicCodeIsNamed(t *testing.T) {
	namedAt(t, "tools/gate.py", "python3 ../tools/gate.py", map[string]string{
		"x = '#'; exec(open('../x.py').read())\n":            "gate.py:1",
		"import os\nos.system('sh ' + f)\n":                  "gate.py:2 hands a shell a command built only when the script runs (os.system)",
		"import subprocess\nsubprocess.run(c, shell=True)\n": "gate.py:2",
		"v = eval(open('../e.py').read())\n":                 "gate.py:1",
		"import importlib\nm = importlib.import_module(n)\n": "gate.py:1",
		"s = f\"{__import__('os').getcwd()}\"\n":             "gate.py:1",
		"from pkg import *\n":                                "gate.py:1 imports * from the package pkg",
		// other roads to exec, import and os
		"import builtins\n\nbuiltins.exec(src)\n":                          "gate.py:3 changes where Python imports from, imports or runs code by a name",
		"f = getattr(__builtins__, n)\n":                                   "gate.py:1 changes where Python imports from, imports or runs code by a name",
		"import sys\nsys.modules[m].system(c)\n":                           "gate.py:2 changes where Python imports from, imports or runs code by a name",
		"import os, timeit\ntimeit.timeit(src, number=1)\n":                "gate.py:1 changes where Python imports from, imports or runs code by a name",
		"from code import InteractiveInterpreter as I\nI().runsource(s)\n": "gate.py:1 changes where Python imports from, imports or runs code by a name",
		"import cProfile\ncProfile.run(src)\n":                             "gate.py:1 changes where Python imports from, imports or runs code by a name",
		"import pkgutil\n":                                                 "gate.py:1 changes where Python imports from, imports or runs code by a name",
		"import unittest as u\nu.defaultTestLoader.discover(d)\n":          "gate.py:2 changes where Python imports from, imports or runs code by a name",
		"import os\nos.chdir('../x')\nimport helper\n":                     "gate.py:2 changes the folder or the environment that what it starts or imports later is found from (os.chdir, os.environ, os.putenv)",
		"import os\n\nos.environ['PATH'] = p\n":                            "gate.py:3 changes the folder or the environment that what it starts or imports later is found from",
		"from os import environ\nenviron.update(BASH_ENV=f)\n":             "gate.py:2 changes the folder or the environment that what it starts or imports later is found from",
		"import os\nos.putenv('ENV', f)\n":                                 "gate.py:2 changes the folder or the environment that what it starts or imports later is found from",
		"from dotenv import load_dotenv\nload_dotenv()\n":                  "gate.py:2 changes the folder or the environment",
		"import \uff4fs\n\uff4fs.system(c)\n":                              "gate.py:1 writes a name with characters Python reads as others (NFKC: \"ｏs\" is os), which hookctl does not read",
		"g = globals()['__builtins__']\n":                                  "gate.py:1 changes where Python imports from, imports or runs code by a name",
		"import os\nos.__dict__['system'](c)\n":                            "gate.py:2 changes where Python imports from, imports or runs code by a name",
		"import sys\nsys._getframe().f_globals\n":                          "gate.py:2 changes where Python imports from, imports or runs code by a name",
		"ns.exec(src)\n":                                      "gate.py:1 changes where Python imports from, imports or runs code by a name",
		"from pickle import load\nx = load(f)\n":              "gate.py:1 changes where Python imports from, imports or runs code by a name",
		"import shelve\n":                                     "gate.py:1 changes where Python imports from, imports or runs code by a name",
		"import yaml\nd = yaml.load(s, Loader=yaml.Loader)\n": "gate.py:2 changes where Python imports from, imports or runs code by a name",
		"import pandas as pd\nd = pd.read_pickle(p)\n":        "gate.py:2 changes where Python imports from, imports or runs code by a name",
	}, map[string]string{"tools/pkg/__init__.py": "__all__ = ['sub']\n"})
	// A method of the same name, or a word in a string, is not.
	namedAt(t, "tools/gate.py", "python3 ../tools/gate.py", map[string]string{"import re\nR = re.compile('x')\nprint('do not exec(this)')\n# eval(that)\n": ""}, nil)
	// Reading the environment, a variable named code, a comparison are not.
	namedAt(t, "tools/gate.py", "python3 ../tools/gate.py", map[string]string{"import os, sys\ncode = 0\nif os.environ['X'] == 'y': code = os.environ.get('Z')\nfrom unittest import mock\napp.exec()\nsys.exit(code)\n": ""}, nil)
}

// A program a shell script names by a value it computes is named at its
// line, in a file it sources or a script it starts too when the value is
// the caller's; one named by a variable no code assigns is the user's.
func TestShellProgramNamedByAComputedValue(t *testing.T) {
	files := map[string]string{"tools/lib.sh": "\"$p\" x\n", "tools/b.sh": "#!/bin/sh\n\"$Q\" y\n"}
	namedAt(t, "tools/gate.sh", "sh ../tools/gate.sh", map[string]string{
		"p=$(cat list.txt); \"$p\" x\n":                              "gate.sh:1 runs a program named by a value the script computes when it runs (from a command's output or its input)",
		"read -r p < list.txt\n\"$p\"\n":                             "gate.sh:2 runs a program named by a value the script computes",
		"p=$(cat list.txt)\n. \"$HOOKCTL_WORKSPACE/tools/lib.sh\"\n": "lib.sh:1 runs a program named by a value the script computes",
		"Q=$(cat list.txt) sh ../tools/b.sh\n":                       "b.sh:2 runs a program named by a value the script computes",
		". \"$HOOKCTL_WORKSPACE/tools/lib.sh\"\n\"${JQ:-jq}\" .\n":   "",
	}, files)
}

// A program a script names by a variable that a file it sources may
// assign (straight, in a function, or any when that file sources or
// evals code, or is looked up in PATH) is named at its line, and in a
// script it starts; one a sourced file does not assign is the user's.
func TestShellProgramNamedByASourcedVariable(t *testing.T) {
	files := map[string]string{
		"tools/config.sh": "TOOL=$(cat list.txt)\n",
		"tools/fns.sh":    "setup() { TOOL=../tools/x.sh; }\n",
		"tools/more.sh":   ". \"$HOOKCTL_WORKSPACE/tools/other.sh\"\n",
		"tools/lib.sh":    "JQ_OPTS=-r\n",
		"tools/b.sh":      "#!/bin/sh\n\"$TOOL\" y\n",
	}
	const why = "runs a program named by a variable that a file the script sources may assign"
	namedAt(t, "tools/gate.sh", "sh ../tools/gate.sh", map[string]string{
		". \"$HOOKCTL_WORKSPACE/tools/config.sh\"\n\"$TOOL\" x\n":         "gate.sh:2 " + why,
		"f() { $TOOL; }\n. \"$HOOKCTL_WORKSPACE/tools/config.sh\"\nf\n":   "gate.sh:1 " + why,
		". \"$HOOKCTL_WORKSPACE/tools/fns.sh\"\nsetup\n$TOOL\n":           "gate.sh:3 " + why,
		". \"$HOOKCTL_WORKSPACE/tools/more.sh\"\n\"${JQ:-jq}\" .\n":       "gate.sh:2 " + why,
		". config.sh\n\"${JQ:-jq}\" .\n":                                  "gate.sh:2 " + why,
		". \"$HOOKCTL_WORKSPACE/tools/config.sh\"\nsh ../tools/b.sh\n":    "b.sh:2 runs a program named by a value the script computes",
		". \"$HOOKCTL_WORKSPACE/tools/lib.sh\"\n\"${JQ:-jq}\" $JQ_OPTS\n": "",
	}, files)
}

// The programs a Python script starts with subprocess from a literal list
// are read as the shell call they are, from the folder it runs in or the
// literal cwd= it gives, under the names it imported them by.
func TestPythonSubprocessListsAreRead(t *testing.T) {
	checkLang(t, langCase{command: "python3 ../tools/gate.py", tools: []string{"python3", "sh"}, files: map[string]string{
		"tools/gate.py": "import subprocess\nimport subprocess as sp\nfrom subprocess import call as c\n" +
			"subprocess.run([\"sh\", \"./n1.txt\"], check=True)\n" +
			"sp.check_call(('python3', '../tools/b.py'))\n" +
			"c([\"./c.sh\"], cwd=\"../tools\")\n" +
			"subprocess.run(['git', '--version'], capture_output=True)\n" +
			"import os\nif os.fork() == 0:\n    os.execlp('sh', 'sh', '../tools/e.sh')\nos.wait()\n" + pyMark("tools/gate.py"),
		".agents/n1.txt": shMark(".agents/n1.txt"),
		"tools/b.py":     pyMark("tools/b.py"),
		"tools/c.sh":     "#!/bin/sh\n" + shMark("tools/c.sh"),
		"tools/e.sh":     shMark("tools/e.sh"),
	}, covered: []string{".agents/n1.txt", "tools/b.py", "tools/c.sh", "tools/e.sh", "tools/gate.py"}})
}

// A list, program, folder or environment a Python script gives subprocess
// that is not literal is named at its line.
func TestPythonSubprocessNotLiteralIsNamed(t *testing.T) {
	namedAt(t, "tools/gate.py", "python3 ../tools/gate.py", map[string]string{
		"import subprocess\ncmd = ['sh', 'x']\nsubprocess.run(cmd)\n":         "gate.py:3 starts a program from a list built only when the script runs",
		"import subprocess\n\nsubprocess.run([prog, 'x'])\n":                  "gate.py:3 runs a program named only when the script runs",
		"import subprocess\nsubprocess.run(['sh', script])\n":                 "gate.py:2 sh is given an option or script known only when the script runs",
		"import subprocess\nsubprocess.run(['sh', '-c', code])\n":             "gate.py:2 hands the shell code built only when the script runs",
		"from subprocess import Popen\nPopen(['./x.sh'], cwd=d)\n":            "gate.py:2 runs ./x.sh after a cd to a folder known only when the script runs",
		"import subprocess\nsubprocess.run(['./x.sh'], env=e)\n":              "gate.py:2 starts a program with an environment built when the script runs",
		"import subprocess\nsubprocess.run(['sh', *rest])\n":                  "gate.py:2 sh is given an option or script known only when the script runs",
		"import subprocess\nsubprocess.run(['x'], shell=s)\n":                 "gate.py:2 may hand a shell code",
		"import subprocess\nsubprocess.run([f'./{n}.sh'])\n":                  "gate.py:2 runs a program named only when the script runs",
		"from os import execv as ev\nev('/bin/sh', ['sh', script])\n":         "gate.py:2 sh is given an option or script known only when the script runs",
		"import os as o\no.execve('/bin/sh', ['sh', './x.sh'], env)\n":        "gate.py:2 starts a program from arguments built only when the script runs, or with an environment (os.execve)",
		"import os\nos.spawnv(os.P_WAIT, p, ['x'])\n":                         "gate.py:2 runs a program named only when the script runs",
		"import subprocess\nsubprocess.run(['sh', './a.sh'], executable=e)\n": "gate.py:2 runs a program named only when the script runs",
		"import subprocess\nsubprocess.Popen(['sh', 'x.sh'], -1, './y')\n":    "gate.py:2 starts a program with options given by position (subprocess executable, cwd, env)",
	}, nil)
	// Another module's run, a method, a word in a string are not.
	namedAt(t, "tools/gate.py", "python3 ../tools/gate.py", map[string]string{"import asyncio\nasyncio.run(main(x))\nprint('subprocess.run(cmd)')\nself.call(x)\n": ""}, nil)
}

// What a Python script hands a shell as a literal string (os.system,
// os.popen, subprocess.getoutput, shell=True) is read as the command it
// is, from the folder the script runs in, under the names it imported
// the functions by.
func TestPythonShellStringsAreRead(t *testing.T) {
	checkLang(t, langCase{command: "python3 ../tools/gate.py", tools: []string{"python3", "sh"}, files: map[string]string{
		"tools/gate.py": "import os as o\nfrom subprocess import getoutput as go, run\n" +
			"o.system('sh ./n1.txt')\n" +
			"print(go('sh ../tools/b.sh'))\n" +
			"run('sh ../tools/c.sh', shell=True, check=True)\n" +
			"o.popen('sh ../tools/d.sh').read()\n" + pyMark("tools/gate.py"),
		".agents/n1.txt": shMark(".agents/n1.txt"),
		"tools/b.sh":     shMark("tools/b.sh"),
		"tools/c.sh":     shMark("tools/c.sh"),
		"tools/d.sh":     shMark("tools/d.sh"),
	}, covered: []string{".agents/n1.txt", "tools/b.sh", "tools/c.sh", "tools/d.sh", "tools/gate.py"}})
}

// Every other use of what starts a program in Python is named at its
// line: a shell string built when the script runs, os.posix_spawn,
// pty.spawn, asyncio's subprocesses, a function or module taken other
// than by calling it, by whatever name the file imported it.
func TestPythonOtherStartsAreNamed(t *testing.T) {
	namedAt(t, "tools/gate.py", "python3 ../tools/gate.py", map[string]string{
		"import os as o\n\no.system(c)\n":                             "gate.py:3 hands a shell a command built only when the script runs (os.system)",
		"from os import system\nsystem(c)\n":                          "gate.py:2 hands a shell a command built only when the script runs (os.system)",
		"from os import *\nx = popen(c)\n":                            "gate.py:2 hands a shell a command built only when the script runs (os.popen)",
		"import subprocess as sp\nsp.getstatusoutput(c)\n":            "gate.py:2 hands a shell a command built only when the script runs (subprocess.getstatusoutput)",
		"import subprocess\nsubprocess.run(['./x.sh'], shell=True)\n": "gate.py:2 changes where Python imports from, imports or runs code by a name or from a string known only when the script runs, or hands code to a shell",
		"import os\nos.posix_spawn('/bin/sh', ['sh', 'x.sh'], {})\n":  "gate.py:2 starts a program in a way hookctl does not read (os.posix_spawn)",
		"import posix\nposix.posix_spawnp('sh', ['sh'], {})\n":        "gate.py:2 starts a program in a way hookctl does not read (os.posix_spawnp)",
		"from pty import spawn\nspawn(['sh', 'x.sh'])\n":              "gate.py:2 starts a program in a way hookctl does not read (pty.spawn)",
		"import asyncio\nasyncio.create_subprocess_exec('sh')\n":      "gate.py:2 starts a program in a way hookctl does not read (asyncio.create_subprocess_exec)",
		"import asyncio.subprocess\nasyncio.subprocess.Process\n":     "gate.py:2 starts a program in a way hookctl does not read (asyncio.subprocess)",
		"import subprocess\nrun = subprocess.run\nrun(['./x.sh'])\n":  "gate.py:2 takes subprocess.run other than by calling it (an alias, an argument), which starts a program",
		"from subprocess import Popen\nclass P(Popen): pass\n":        "gate.py:2 takes subprocess.Popen other than by calling it",
		"import subprocess\nf = getattr(subprocess, 'run')\n":         "gate.py:2 uses the module subprocess other than by naming its functions (getattr, an alias, an argument)",
	}, nil)
	// The modules' other names, an import's own names, another object's
	// function of the same name, an f-string's text are not; an
	// f-string's {expression} is code.
	namedAt(t, "tools/gate.py", "python3 ../tools/gate.py", map[string]string{"import os, subprocess\nfrom subprocess import PIPE, run\nprint(os.environ.get('X'), os.path.join('a', 'b'), subprocess.DEVNULL, PIPE)\nself.system(x)\nself.run(x)\nprint(f\"subprocess failed in {os.getcwd()}: {{os}}\")\n": ""}, nil)
	namedAt(t, "tools/gate.py", "python3 ../tools/gate.py", map[string]string{"import os\nprint(f\"ran: {os.system(c)}\")\n": "gate.py:2 hands a shell a command built only when the script runs (os.system)"}, nil)
}

// What a JavaScript file starts with child_process from a literal program
// and list is read as the shell call it is, a literal exec's string as
// the command it is, from the folder node runs in or a literal cwd.
func TestNodeChildProcessIsRead(t *testing.T) {
	checkLang(t, langCase{command: "node ../tools/gate.js", tools: []string{"node", "sh"}, files: map[string]string{
		"tools/gate.js": "const cp = require('child_process');\nconst { execFileSync: ef } = require(\"node:child_process\");\n" +
			"require(\"child_process\").execFileSync(\"sh\", [\"./n1.txt\"], { stdio: \"inherit\" });\n" +
			"ef('sh', ['./c.sh'], { cwd: '../tools', stdio: 'inherit' });\n" +
			"cp.spawnSync('node', ['../tools/b.js'], { stdio: 'inherit' });\n" +
			"cp.execSync('sh ../tools/d.sh', { stdio: 'inherit' });\n" + jsMark("tools/gate.js"),
		".agents/n1.txt": shMark(".agents/n1.txt"),
		"tools/b.js":     jsMark("tools/b.js"),
		"tools/c.sh":     shMark("tools/c.sh"),
		"tools/d.sh":     shMark("tools/d.sh"),
	}, covered: []string{".agents/n1.txt", "tools/b.js", "tools/c.sh", "tools/d.sh", "tools/gate.js"}})
}

// A program, list or options a JavaScript file gives child_process that
// are not literal are named at their line: a property given by its name
// alone ({ cwd }) as the variable it is.
func TestNodeChildProcessNotLiteralIsNamed(t *testing.T) {
	namedAt(t, "tools/gate.mjs", "node ../tools/gate.mjs", map[string]string{
		"import { spawnSync } from 'node:child_process';\nspawnSync(p, ['x']);\n":                  "gate.mjs:2 runs a program named only when the script runs",
		"import { spawnSync } from 'node:child_process';\nspawnSync('sh', args);\n":                "gate.mjs:2 starts a program with arguments built only when the script runs",
		"import * as cp from 'node:child_process';\ncp.execFile('./x.sh', [], opts);\n":            "gate.mjs:2 starts a program with options built only when the script runs",
		"import { fork } from 'node:child_process';\nfork('./x.js', [], { cwd: d });\n":            "gate.mjs:2 runs ./x.js after a cd to a folder known only when the script runs",
		"import { spawnSync } from 'node:child_process';\nspawnSync('sh', ['a.sh'], { cwd });\n":   "gate.mjs:2 runs a.sh after a cd to a folder known only when the script runs",
		"import { spawnSync } from 'node:child_process';\nspawnSync('sh', ['a.sh'], { shell });\n": "gate.mjs:2 starts a program through a shell the options name, or one known only when the script runs",
		"import { spawn } from 'node:child_process';\nspawn('./x.sh', [], { env: e });\n":          "gate.mjs:2 starts a program with an environment or interpreter built",
		"import { spawn } from 'node:child_process';\nspawn('x', [], { shell: '/bin/bash' });\n":   "gate.mjs:2 starts a program through a shell the options name",
		"const proc = require('child_process');\nproc.exec('x', { shell });\n":                     "gate.mjs:2 starts a program through a shell the options name",
		"import { spawn } from 'node:child_process';\nspawn('x', [], { [k]: v });\n":               "gate.mjs:2 starts a program with options built only when the script runs",
		"import { execSync } from 'node:child_process';\nexecSync(`sh ${f}`);\n":                   "gate.mjs:2 hands code to a shell",
		"import { execSync } from 'node:child_process';\nexecSync('curl -s x | sh');\n":            "gate.mjs:2 sh runs the code that another command of the pipeline prints",
	}, nil)
}

// Every use of child_process other than the calls read is named at its
// line: a binding the reader does not follow, the module or a function
// taken as a value, exec under another name, a call hidden from the
// reader by a regular expression, node's internal bindings. A call in a
// template's ${} is read.
func TestNodeOtherChildProcessUsesAreNamed(t *testing.T) {
	namedAt(t, "tools/gate.mjs", "node ../tools/gate.mjs", map[string]string{
		"import cp, { spawn } from 'node:child_process';\nspawn(p);\n":                       "gate.mjs:1 names child_process other than where hookctl reads how the file binds or calls it",
		"const cp = await import('node:child_process');\ncp.spawn(p);\n":                     "gate.mjs:1 names child_process other than where hookctl reads how the file binds or calls it",
		"let cp;\ncp = require('child_process');\n":                                          "gate.mjs:2 names child_process other than where hookctl reads how the file binds or calls it",
		"const cp = require('child_process');\nconst { spawn } = cp;\n":                      "gate.mjs:2 uses child_process (cp) other than by calling spawn, spawnSync, execFile, execFileSync, fork, exec or execSync on it",
		"const cp = require('child_process');\ncp['spawn'](p);\n":                            "gate.mjs:2 uses child_process (cp) other than by calling",
		"const cp = require('child_process');\nconst run = cp.spawnSync;\n":                  "gate.mjs:2 uses child_process (cp) other than by calling",
		"import { ChildProcess } from 'node:child_process';\n\nnew ChildProcess();\n":        "gate.mjs:3 uses child_process's ChildProcess (ChildProcess)",
		"import { spawnSync as s } from 'node:child_process';\nconst run = s;\n":             "gate.mjs:2 takes child_process's spawnSync (s) other than by calling it",
		"const { exec: run } = require('child_process');\nrun(c);\n":                         "gate.mjs:2 hands code to a shell",
		"const proc = require('child_process');\nproc.exec(c);\n":                            "gate.mjs:2 hands code to a shell",
		"const cp = require('child_process');\nconst q = /`/.test(s); cp.spawnSync('sh');\n": "gate.mjs:2 names cp, bound to child_process, where hookctl reads a string",
		"const cp = require('child_process');\nconsole.log(`${cp.spawnSync(p).stdout}`);\n":  "gate.mjs:2 runs a program named only when the script runs",
		"process.binding('spawn_sync').spawn(o);\n":                                          "gate.mjs:1 starts a program in a way hookctl does not read (process.binding, process.execve, Bun.spawn, Bun.$, Deno.Command)",
		"const p = Bun.spawn(['sh', 'x.sh']);\n":                                             "gate.mjs:1 starts a program in a way hookctl does not read",
		"await Bun.$`sh x.sh`;\n":                                                            "gate.mjs:1 starts a program in a way hookctl does not read",
		"\nnew Deno.Command('sh', { args: ['x.sh'] }).outputSync();\n":                       "gate.mjs:2 starts a program in a way hookctl does not read",
	}, nil)
	// A comment, a string, another object's method of the same name are
	// not.
	namedAt(t, "tools/gate.mjs", "node ../tools/gate.mjs", map[string]string{"import { spawnSync } from 'node:child_process';\n// spawnSync(x) and child_process\nconsole.log('spawnSync failed', `${o.spawnSync}`);\nspawnSync('git', ['log']);\n": ""}, nil)
	checkLang(t, langCase{command: "node ../tools/gate.js", tools: []string{"node", "sh"}, files: map[string]string{
		"tools/gate.js": "const cp = require('child_process');\nconsole.error(`${cp.execFileSync('sh', ['../tools/b.sh'])}`);\n" + jsMark("tools/gate.js"),
		"tools/b.sh":    shMark("tools/b.sh"),
	}, covered: []string{"tools/b.sh", "tools/gate.js"}})
}

// What JavaScript hands a shell or runs from a string is named at its
// line; a regular expression's exec is not.
func TestNodeDynamicCodeIsNamed(t *testing.T) {
	namedAt(t, "tools/gate.mjs", "node ../tools/gate.mjs", map[string]string{
		"import { execSync } from 'node:child_process';\nexecSync(cmd);\n":                          "gate.mjs:2 hands code to a shell",
		"import { spawnSync } from 'node:child_process';\nspawnSync('sh', ['-c', c]);\n":            "gate.mjs:2 hands the shell code built only when the script runs",
		"import cp from 'node:child_process';\ncp.spawn(p, a, { shell: true });\n":                  "gate.mjs:2 hands code to a shell",
		"const f = new Function(src);\n":                                                            "gate.mjs:1 runs or loads code",
		"eval(src);\n":                                                                              "gate.mjs:1 runs or loads code",
		"import { createRequire } from 'node:module';\nconst r = createRequire(import.meta.url);\n": "gate.mjs:2 runs or loads code",
		// eval, Function, vm, workers and Module by other names
		"const x = 1;\n(0, eval)(src);\n":                            "gate.mjs:2 runs or loads code",
		"globalThis.eval(src);\n":                                    "gate.mjs:1 runs or loads code",
		"const f = Function(src);\n":                                 "gate.mjs:1 runs or loads code",
		"const f = (() => {}).constructor(src);\n":                   "gate.mjs:1 runs or loads code",
		"import { runInThisContext as r } from 'vm';\nr(src);\n":     "gate.mjs:1 runs or loads code",
		"const v = await import('node:vm');\n":                       "gate.mjs:1 runs or loads code",
		"import * as wt from 'worker_threads';\nnew wt.Worker(f);\n": "gate.mjs:1 runs or loads code",
		"const p = process;\np.dlopen(m, f);\n":                      "gate.mjs:2 runs or loads code",
		"import m from 'module';\n":                                  "gate.mjs:1 runs or loads code",
		"const x = 1;\nmodule.constructor._load(f);\n":               "gate.mjs:2 runs or loads code",
		// a changed folder or environment
		"process.chdir('../x');\n":                           "gate.mjs:1 changes the folder or the environment that what it starts or loads later is found from (process.chdir, process.env)",
		"\nprocess.env.NODE_OPTIONS = '--require ./x.js';\n": "gate.mjs:2 changes the folder or the environment",
		"process.env['PATH'] += ':../bin';\n":                "gate.mjs:1 changes the folder or the environment",
		"Object.assign(process.env, { BASH_ENV: f });\n":     "gate.mjs:1 changes the folder or the environment",
		"import 'dotenv/config';\n":                          "gate.mjs:1 changes the folder or the environment",
		"process.loadEnvFile();\n":                           "gate.mjs:1 changes the folder or the environment",
		"const x = 1;\n\\u0065val(src);\n":                   "gate.mjs:2 runs or loads code",
		"\\u{72}equire('./x.js');\n":                         "gate.mjs:1 runs or loads code",
	}, nil)
	namedAt(t, "tools/gate.mjs", "node ../tools/gate.mjs", map[string]string{"const m = /x/.exec(s);\nimport { spawnSync } from 'node:child_process';\nspawnSync('git', ['log']);\n": ""}, nil)
	// A class's constructor, a word in a string, an eval method of
	// another object, a Worker option's type are not.
	namedAt(t, "tools/gate.mjs", "node ../tools/gate.mjs", map[string]string{"if (process.env.CI === '1' || process.env['X'] == 'y') console.log(process.cwd());\n": ""}, nil)
	namedAt(t, "tools/gate.mjs", "node ../tools/gate.mjs", map[string]string{"console.log('caf\\u00e9', `\\u{1F600}`); // \\u0065val\n": ""}, nil)
	namedAt(t, "tools/gate.mjs", "node ../tools/gate.mjs", map[string]string{"class A { constructor(x) { this.x = x; } }\nconsole.log('eval failed; see module docs', { type: 'module' });\nclient.evaluate(q);\n": ""}, nil)
}

// What a Perl, Ruby, PHP or awk script starts itself is not read: each
// line that may start a program is named at its line; a line that starts
// none, and awk's | in a string or ||, are not.
func TestOtherLanguagesStartsAreNamed(t *testing.T) {
	const perl = "starts a program (system, exec, backticks, qx, a piped open, IPC::), which hookctl does not read: what it runs is not known"
	namedAt(t, "tools/gate.pl", "perl ../tools/gate.pl", map[string]string{
		"use strict;\nsystem('sh', '../tools/x.sh');\n":        "gate.pl:2 " + perl,
		"my $x = `sh ../tools/x.sh`;\n":                        "gate.pl:1 " + perl,
		"my $x = qx{$cmd};\n":                                  "gate.pl:1 " + perl,
		"\nexec { 'sh' } 'sh', '../tools/x.sh';\n":             "gate.pl:2 " + perl,
		"open(my $fh, '-|', 'sh', '../tools/x.sh') or die;\n":  "gate.pl:1 " + perl,
		"open(FH, \"sh ../tools/x.sh |\");\n":                  "gate.pl:1 " + perl,
		"use IPC::Open3;\n":                                    "gate.pl:1 " + perl,
		"open(my $fh, '<', $f) || die \"cannot\";\nprint 1;\n": "",
	}, nil)
	const ruby = "starts a program (system, exec, spawn, backticks, %x, IO.popen, Open3, a piped open), which hookctl does not read: what it runs is not known"
	namedAt(t, "tools/gate.rb", "ruby ../tools/gate.rb", map[string]string{
		"system('sh', '../tools/x.sh')\n":         "gate.rb:1 " + ruby,
		"x = `sh ../tools/x.sh`\n":                "gate.rb:1 " + ruby,
		"x = %x(sh ../tools/x.sh)\n":              "gate.rb:1 " + ruby,
		"pid = Process.spawn(cmd)\n":              "gate.rb:1 " + ruby,
		"IO.popen(['sh', 'x.sh']).read\n":         "gate.rb:1 " + ruby,
		"require 'open3'\nOpen3.capture2(cmd)\n":  "gate.rb:2 " + ruby,
		"open('|sh ../tools/x.sh').read\n":        "gate.rb:1 " + ruby,
		"puts 'hello'\nFile.open('x.txt').read\n": "",
	}, nil)
	const php = "starts a program (exec, shell_exec, system, passthru, proc_open, popen, backticks), which hookctl does not read: what it runs is not known"
	namedAt(t, "tools/gate.php", "php ../tools/gate.php", map[string]string{
		"<?php\nsystem('sh ../tools/x.sh');\n": "gate.php:2 " + php,
		"<?php\n$o = `sh x.sh`;\n":             "gate.php:2 " + php,
		"<?php\nproc_open($c, $d, $p);\n":      "gate.php:2 " + php,
		"<?php\necho 'hello';\n":               "",
	}, nil)
	const awk = "starts a program (system, a pipe to or from a command), which hookctl does not read: what it runs is not known"
	namedAt(t, "tools/gate.awk", "gawk -f ../tools/gate.awk </dev/null", map[string]string{
		"BEGIN { system(\"sh ../tools/x.sh\") }\n":                           "gate.awk:1 " + awk,
		"BEGIN {\n\t\"sh ../tools/x.sh\" | getline x\n}\n":                   "gate.awk:2 " + awk,
		"BEGIN { print \"x\" | \"sh\" }\n":                                   "gate.awk:1 " + awk,
		"BEGIN { print a || b | c }\n":                                       "gate.awk:1 " + awk,
		"BEGIN { if (a == \"|\" || b) print \"a | b\" > \"/dev/stderr\" }\n": "",
	}, nil)
	namedAt(t, "tools/gate.sh", "sh ../tools/gate.sh", map[string]string{
		"awk '{ system($0) }' list.txt\n": "the program of awk:1 " + awk,
	}, nil)
}

// namedAt writes each code of cases as file, run by command, with files
// beside it, and checks that trust names the line its case gives ("" for
// none of the file's).
func namedAt(t *testing.T, file, command string, cases, files map[string]string) {
	t.Helper()
	for code, line := range cases {
		root, err := Key(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		write(t, root, file, code)
		for rel, content := range files {
			write(t, root, rel, content)
		}
		write(t, root, HooksFile, `{"h": {"Stop": [{"command": `+quote(command)+`}]}}`)
		gaps := strings.Join(take(t, root).Commands[0].Gaps, "\n")
		if line == "" && gaps != "" || !strings.Contains(gaps, line) {
			t.Errorf("%q: gaps %q, want %q", code, gaps, line)
		}
	}
}

// A path with ".." after a link is read as the interpreter opens it: perl,
// gawk and make hand it to the kernel, which follows the link first; ruby
// expands it as text. Only the file that runs is covered.
func TestDotDotAfterALink(t *testing.T) {
	links := map[string]string{"sub/l": "../tools/deep"}
	for _, tc := range []langCase{
		{name: "perl", command: "perl -e 'require \"../sub/l/../y.pl\"'", tools: []string{"perl"}, files: map[string]string{
			"tools/deep/.keep": "", "tools/y.pl": plMark("tools/y.pl") + "1;\n", "sub/y.pl": plMark("sub/y.pl") + "1;\n",
		}, covered: []string{"tools/y.pl"}},
		{name: "gawk", command: "gawk '@include \"../sub/l/../y.awk\"' </dev/null", tools: []string{"gawk"}, files: map[string]string{
			"tools/deep/.keep": "", "tools/y.awk": awkMark("tools/y.awk"), "sub/y.awk": awkMark("sub/y.awk"),
		}, covered: []string{"tools/y.awk"}},
		{name: "make", command: "make -s -f ../tools/x.mk", tools: []string{"make"}, files: map[string]string{
			"tools/deep/.keep": "", "tools/x.mk": "include ../sub/l/../y.mk\nall:\n\t@:\n", "tools/y.mk": makeMark("tools/y.mk"), "sub/y.mk": makeMark("sub/y.mk"),
		}, covered: []string{"tools/y.mk"}, gap: "project's own scripts"},
		{name: "ruby", command: "ruby -e 'load \"../sub/l/../y.rb\"'", tools: []string{"ruby"}, files: map[string]string{
			"tools/deep/.keep": "", "tools/y.rb": rbMark("tools/y.rb"), "sub/y.rb": rbMark("sub/y.rb"),
		}, covered: []string{"sub/y.rb"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.links = links
			checkLang(t, tc)
		})
	}
}

// The code a command gives perl -e, ruby -e or python3 -c is read like a
// script's, with the command's options (-I, -M, -r), from the folder the
// call runs in.
func TestInlineCodeIsRead(t *testing.T) {
	checkLang(t, langCase{command: "perl -I../lib -MHelper -e 'do \"../tools/lib.pl\"' && ruby -I../lib -rhelper -e 'load \"../tools/lib.rb\"'", tools: []string{"perl", "ruby"}, files: map[string]string{
		"lib/Helper.pm": "package Helper;\n" + plMark("lib/Helper.pm") + "1;\n",
		"tools/lib.pl":  plMark("tools/lib.pl") + "1;\n",
		"lib/helper.rb": rbMark("lib/helper.rb"),
		"tools/lib.rb":  rbMark("tools/lib.rb"),
	}, covered: []string{"lib/Helper.pm", "tools/lib.pl", "lib/helper.rb", "tools/lib.rb"}})
	checkLang(t, langCase{command: "python3 -c \"exec(open('../tools/x.py').read())\"", tools: []string{"python3"}, files: map[string]string{
		"tools/x.py": pyMark("tools/x.py"),
	}, gap: "python -c:1 changes where Python imports from, imports or runs code by a name or from a string"})
}

// What node's options load is covered or named before -e code and a
// script on stdin as before a script file: -r's module is covered, an
// --env-file or --env-file-if-exists, whose NODE_OPTIONS may load code, is
// named, in either form of the option.
func TestNodeOptionsBeforeCodeAreRead(t *testing.T) {
	checkLang(t, langCase{command: "node -r ../tools/pre.js -e 1 && node --require=../tools/pre2.js < ../tools/m.js", tools: []string{"node"}, files: map[string]string{
		"tools/pre.js":  jsMark("tools/pre.js"),
		"tools/pre2.js": jsMark("tools/pre2.js"),
		"tools/m.js":    "1;\n",
	}, covered: []string{"tools/pre.js", "tools/pre2.js"}})
	const why = ", whose NODE_OPTIONS may load code: what it loads that way is not fingerprinted"
	namedAt(t, "tools/x.js", "node --env-file=../tools/env -e 1", map[string]string{"1;\n": "node is run with --env-file ../tools/env" + why}, nil)
	namedAt(t, "tools/x.js", "node --env-file ../tools/env -e 1", map[string]string{"1;\n": "node is run with --env-file ../tools/env" + why}, nil)
	namedAt(t, "tools/x.js", "node --env-file-if-exists=../tools/env < ../tools/x.js", map[string]string{"1;\n": "node is run with --env-file-if-exists ../tools/env" + why}, nil)
	namedAt(t, "tools/x.js", "node --env-file-if-exists=../tools/env ../tools/x.js", map[string]string{"1;\n": "tools/x.js is run with --env-file-if-exists ../tools/env" + why}, nil)
}

// A module in the folder Python looks in first (sys.path[0]) named like
// one of the standard library's is covered, whoever imports it: the
// script, or a module of the standard library as it runs (subprocess
// imports selectors, argparse gettext), a package as well as a file.
func TestPythonStandardLibraryShadowsAreCovered(t *testing.T) {
	checkLang(t, langCase{command: "python3 ../tools/gate.py && python3 -c 'import logging'", tools: []string{"python3"}, files: map[string]string{
		"tools/gate.py":                 "import subprocess, argparse\nargparse.ArgumentParser().parse_args([])\n",
		"tools/selectors.py":            pyMark("tools/selectors.py"),
		"tools/gettext.py":              pyMark("tools/gettext.py"),
		"tools/helper.py":               "X = 1\n",
		".agents/traceback/__init__.py": pyMark(".agents/traceback/__init__.py"),
	}, covered: []string{"tools/gate.py", "tools/selectors.py", "tools/gettext.py", ".agents/traceback/__init__.py"}})
}

// A script that imports a module that is not the standard library's (a
// package installed outside the workspace, or its own) has every module
// beside it covered, as an installed package imports others by names of
// its own (requests imports idna); one that imports only the standard
// library has only the modules named like the standard library's.
func TestPythonInstalledPackageImportsAreCovered(t *testing.T) {
	root, _ := trusted(t, "python3 ../tools/gate.py && python3 ../lib/gate.py", map[string]string{
		"tools/gate.py":   "import notinstalledhere\n",
		"tools/idna.py":   "X = 1\n",
		"tools/notes.txt": "",
		"lib/gate.py":     "import json\n",
		"lib/sibling.py":  "X = 1\n",
		"lib/gettext.py":  "X = 1\n",
	})
	files := take(t, root).Commands[0].Files
	for _, want := range []string{"tools/idna.py", "lib/gettext.py"} {
		if !slices.Contains(files, want) {
			t.Errorf("covered %q, want %s", files, want)
		}
	}
	if slices.Contains(files, "lib/sibling.py") || slices.Contains(files, "tools/notes.txt") {
		t.Errorf("covered %q, want neither lib/sibling.py nor tools/notes.txt", files)
	}
}

// The code of a python -c in a list a script starts is read as in a
// command: its imports from the folder the list runs in, what it runs
// from a string; in a folder known only when it runs, an import of a
// module that is not the standard library's is named.
func TestPythonCodeInAListIsRead(t *testing.T) {
	checkLang(t, langCase{command: "python3 ../tools/gate.py", tools: []string{"python3"}, files: map[string]string{
		"tools/gate.py": "import subprocess\nsubprocess.run(['python3', '-c', 'import helper'], cwd='../lib')\n" + pyMark("tools/gate.py"),
		"lib/helper.py": pyMark("lib/helper.py"),
	}, covered: []string{"tools/gate.py", "lib/helper.py"}})
	namedAt(t, "tools/gate.py", "python3 ../tools/gate.py", map[string]string{
		"import subprocess\nsubprocess.run(['python3', '-c', \"exec(open('../x.py').read())\"])\n": "python -c:1 changes where Python imports from, imports or runs code by a name",
		"import subprocess\nsubprocess.run(['python3', '-c', 'import helper'], cwd=d)\n":           "python -c imports a module that is not the standard library's",
	}, nil)
	namedAt(t, "tools/gate.sh", "sh ../tools/gate.sh", map[string]string{
		"cd \"$D\" && python3 -c 'import helper'\n": "python -c imports a module that is not the standard library's, which Python looks for first in the folder it runs in, known only when it runs",
		"cd \"$D\" && python3 -c 'import json'\n":   "",
	}, nil)
}

// A byte order mark at the start of a Python file, which Python skips,
// does not hide its first import.
func TestPythonByteOrderMark(t *testing.T) {
	checkLang(t, langCase{command: "python3 ../tools/gate.py", tools: []string{"python3"}, files: map[string]string{
		"tools/gate.py":   "\ufeffimport json, helper\n",
		"tools/helper.py": pyMark("tools/helper.py"),
	}, covered: []string{"tools/gate.py", "tools/helper.py"}})
	if imps := pyImports([]byte("\ufeffimport helper\n")); len(imps) != 1 || imps[0].mod != "helper" {
		t.Errorf("pyImports = %+v, want helper", imps)
	}
}

// A script that runs a program by a variable with a literal default
// (${PYTHON:-python3} x.py) runs the default when the user sets nothing:
// what that reads is covered.
func TestProgramByADefault(t *testing.T) {
	checkLang(t, langCase{command: "sh ../tools/gate.sh && sh ../tools/b.sh", tools: []string{"python3", "sh"}, files: map[string]string{
		"tools/gate.sh":   "${PYTHON:-python3} ../tools/x.py\n",
		"tools/b.sh":      "\"${SH-sh}\" ../tools/y.sh\n",
		"tools/x.py":      "import helper\n",
		"tools/helper.py": pyMark("tools/helper.py"),
		"tools/y.sh":      shMark("tools/y.sh"),
	}, covered: []string{"tools/gate.sh", "tools/b.sh", "tools/x.py", "tools/helper.py", "tools/y.sh"}})
}
