#!/bin/sh
# Start-up of hookctl against the floor of a Go program, measured side by
# side in one hyperfine run, for two commits built as releases are built.
#
#   sh cmd/hookctl/testdata/startup.sh [BEFORE [AFTER]]   (from the repository's root)
#
# BEFORE and AFTER are commits (default: HEAD~ and the working tree). Needs
# hyperfine (apt-get install hyperfine, brew install hyperfine) and jq. RUNS
# sets the runs per command (100).
set -eu

runs=${RUNS:-100}
before=${1:-HEAD~}
after=${2:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
repo=$(pwd)
build() { # build SRC OUT, as .goreleaser.yaml builds a release
	(cd "$1" && CGO_ENABLED=0 go build -tags urfave_cli_no_docs -trimpath -ldflags='-s -w' -o "$2" ./cmd/hookctl)
}
mkdir "$dir/before"
git archive "$before" | tar -x -C "$dir/before"
build "$dir/before" "$dir/hookctl-before"
if [ -n "$after" ]; then
	mkdir "$dir/after"
	git archive "$after" | tar -x -C "$dir/after"
	build "$dir/after" "$dir/hookctl"
else
	build "$repo" "$dir/hookctl"
fi
# The floor: a Go program that prints one line, and the least a wrapper
# written in Go can do (minwrap: start COMMAND, copy its output, wait, log).
mkdir "$dir/hello"
printf 'package main\n\nimport "os"\n\nfunc main() { os.Stdout.WriteString("hello\\n") }\n' > "$dir/hello/main.go"
printf 'module hello\n\ngo 1.26\n' > "$dir/hello/go.mod"
(cd "$dir/hello" && CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o ../hello-go .)
(cd runtime/tracelog/testdata/minwrap && CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o "$dir/minwrap" .)
cd "$dir"
export HOME="$dir/home" TMPDIR="$dir"
mkdir -p "$HOME"
# One hook, whose handler prints its answer: what run adds is the
# difference with the handler alone.
printf '%s\n' "echo '{\"decision\":\"allow\"}'" > allow.sh
printf '{"gate":{"PreToolUse":[{"matcher":"run_command","hooks":[{"command":"sh %s/allow.sh"}]}]}}\n' "$dir" > one.json
run="run PreToolUse --tool run_command --args {} --config one.json"

hyperfine -N --style none --warmup 10 --runs "$runs" --export-json times.json \
	-n hello-go ./hello-go \
	-n version ./hookctl\ --version \
	-n version-before ./hookctl-before\ --version \
	-n minwrap "./minwrap /bin/true" \
	-n trace "./hookctl trace -- /bin/true" \
	-n trace-before "./hookctl-before trace -- /bin/true" \
	-n handler "sh $dir/allow.sh" \
	-n run "./hookctl $run" \
	-n run-before "./hookctl-before $run" >/dev/null 2>hyperfine.log

median() { jq -r --arg n "$1" '.results[] | select(.command == $n) | .median * 1000' times.json; }
ratio() { jq -rn --argjson a "$(median "$1")" --argjson b "$(median "$2")" '$a / $b * 100 | round / 100'; }
over() { jq -rn --argjson a "$(median "$1")" --argjson b "$(median "$2")" --argjson c "$(median "$3")" '($a - $c) / ($b - $c) * 100 | round / 100'; }
for n in hello-go version version-before minwrap trace trace-before handler run run-before; do
	printf '%-16s %7.2f ms\n' "$n" "$(median "$n")"
done
echo "--version / hello-go:               $(ratio version hello-go) (before $(ratio version-before hello-go))"
echo "trace -- /bin/true / minwrap:        $(ratio trace minwrap) (before $(ratio trace-before minwrap))"
echo "run's overhead over the handler:     $(jq -rn --argjson a "$(median run)" --argjson b "$(median handler)" '($a - $b) * 100 | round / 100') ms (before $(jq -rn --argjson a "$(median run-before)" --argjson b "$(median handler)" '($a - $b) * 100 | round / 100') ms)"
