#!/bin/sh
# Whole-process figures of hookctl trace, measured side by side in one run:
# what trace adds to a handler's command, against the start-up of hookctl
# itself and of a Go program that only prints a line.
#
#   sh runtime/tracelog/testdata/bench.sh        (from the repository's root)
#
# Needs hyperfine (apt-get install hyperfine, brew install hyperfine), jq, bc
# and GNU time (/usr/bin/time -v). RUNS sets the runs per command (100). On a
# shared machine, run it as root under nice -n -20 to keep other load out.
set -eu

runs=${RUNS:-100}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/hookctl" ./cmd/hookctl
CGO_ENABLED=0 go build -tags urfave_cli_no_docs -o "$dir/hookctl-static" ./cmd/hookctl
cd "$dir"
mkdir hello
printf 'package main\n\nimport "os"\n\nfunc main() { os.Stdout.WriteString("hello\\n") }\n' > hello/main.go
printf 'module hello\n\ngo 1.21\n' > hello/go.mod
(cd hello && go build -o ../hello-go .)
export HOOKCTL_LOG="$dir/runs.jsonl"

handler="sh -c 'echo {\"decision\":\"allow\"}'"
hyperfine -N --style none --warmup 5 --runs "$runs" --export-json times.json \
	-n true "/bin/true" \
	-n trace-true "./hookctl trace -- /bin/true" \
	-n static-trace-true "./hookctl-static trace -- /bin/true" \
	-n handler "$handler" \
	-n static-trace-handler "./hookctl-static trace -- $handler" \
	-n version "./hookctl --version" \
	-n static-version "./hookctl-static --version" \
	-n hello-go "./hello-go" >/dev/null 2>hyperfine.log

median() { jq -r --arg n "$1" '.results[] | select(.command == $n) | .median * 1000' times.json; }
cpu() { jq -r --arg n "$1" '.results[] | select(.command == $n) | (.user + .system) * 1000' times.json; }
report() { printf '%-48s %8.1f ms   cpu %6.1f ms\n' "$1" "$(median "$2")" "$(cpu "$2")"; }
overhead() {
	printf '%-48s %8.1f ms   cpu %6.1f ms\n' "  overhead of trace" \
		"$(echo "$(median "$1") - $(median "$2")" | bc -l)" "$(echo "$(cpu "$1") - $(cpu "$2")" | bc -l)"
}
report "/bin/true alone" true
report "hookctl trace -- /bin/true" trace-true
overhead trace-true true
report "static build: hookctl trace -- /bin/true" static-trace-true
overhead static-trace-true true
report "sh -c 'echo {...}', a handler alone" handler
report "static build: hookctl trace -- sh -c ..." static-trace-handler
overhead static-trace-handler handler
report "hookctl --version (start-up)" version
report "static build: hookctl --version" static-version
report "a Go program that prints a line" hello-go

/usr/bin/time -v ./hookctl trace -- sh -c 'head -c 100000000 /dev/zero' > /dev/null 2> flood.err
rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' flood.err)
printf '%-48s %8.1f MB\n' "peak RSS of trace while 100 MB go through" "$(echo "$rss / 1024" | bc -l)"
