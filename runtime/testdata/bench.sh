#!/bin/sh
# Whole-process figures of hookctl run, measured side by side in one run.
#
#   sh runtime/testdata/bench.sh            (from the repository's root)
#
# Needs hyperfine (apt-get install hyperfine, brew install hyperfine), jq, bc
# and GNU time (/usr/bin/time -v). RUNS sets the runs per command (60). On a
# shared machine, run it as root under nice -n -20 to keep other load out.
set -eu

runs=${RUNS:-60}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/hookctl" ./cmd/hookctl
cd "$dir"
# The floor of any Go program on this machine, to read the rest against.
mkdir hello
printf 'package main\n\nimport "os"\n\nfunc main() { os.Stdout.WriteString("hello\\n") }\n' > hello/main.go
printf 'module hello\n\ngo 1.21\n' > hello/go.mod
(cd hello && go build -o ../hello-go .)
export HOME="$dir/home"
mkdir -p "$HOME"

allow='echo {\"decision\":\"allow\"}'

# One hook; 2,000 hooks of which the last matches; eight 200 ms handlers;
# a handler that prints 100 MB.
printf '{"gate":{"PreToolUse":[{"matcher":"run_command","hooks":[{"command":"%s"}]}]}}\n' "$allow" > one.json
# The 1,999 others name the other documented tools in turn (a large real
# file repeats its matchers); in big-distinct.json no two matchers are the
# same, the worst case for the loader, which compiles each distinct matcher.
tools="view_file write_to_file replace_file_content multi_replace_file_content list_dir find_by_name grep_search search_web read_url_content manage_task schedule list_permissions ask_permission invoke_subagent define_subagent send_message manage_subagents ask_question generate_image browser_.*"
for variant in big big-distinct; do
	{
		echo '{'
		i=0
		set -- $tools
		while [ $i -lt 1999 ]; do
			[ $# -eq 0 ] && set -- $tools
			matcher=$1
			[ $variant = big-distinct ] && matcher="tool_$i|browser_.*"
			printf '"hook-%d":{"PreToolUse":[{"matcher":"%s","hooks":[{"command":"./hooks/h%d.sh","timeout":5}]}]},\n' $i "$matcher" $i
			shift
			i=$((i + 1))
		done
		printf '"gate":{"PreToolUse":[{"matcher":"run_command","hooks":[{"command":"%s"}]}]}}\n' "$allow"
	} > $variant.json
done
{
	echo '{'
	i=0
	while [ $i -lt 8 ]; do
		[ $i -gt 0 ] && echo ','
		printf '"slow-%d":{"PreToolUse":[{"hooks":[{"command":"sleep 0.2; %s # %d"}]}]}' $i "$allow" $i
		i=$((i + 1))
	done
	echo '}'
} > eight.json
printf '{"flood":{"PreToolUse":[{"hooks":[{"command":"head -c 100000000 /dev/zero | tr \\"\\\\\\\\0\\" x"}]}]}}\n' > flood.json

# -N runs each command without a shell, so nothing is subtracted by
# estimate; --tool builds in-process the payload that the agent would pipe.
run="./hookctl run PreToolUse --tool run_command --args {}"
hyperfine -N --style none --warmup 5 --runs "$runs" --export-json times.json \
	-n direct "sh -c '$allow'" \
	-n run-1 "$run --config one.json" \
	-n run-2000 "$run --config big.json" \
	-n run-2000-distinct "$run --config big-distinct.json" \
	-n direct-sleep "sh -c 'sleep 0.2; $allow'" \
	-n run-8x200ms "$run --config eight.json" \
	-n startup "./hookctl --version" \
	-n hello-go "./hello-go" >/dev/null 2>hyperfine.log

# Wall time swings on a shared machine; CPU time (user + system, mean) is
# the steadier figure, so both are printed.
median() { jq -r --arg n "$1" '.results[] | select(.command == $n) | .median * 1000' times.json; }
cpu() { jq -r --arg n "$1" '.results[] | select(.command == $n) | (.user + .system) * 1000' times.json; }
report() { printf '%-40s %8.1f ms   cpu %6.1f ms\n' "$1" "$(median "$2")" "$(cpu "$2")"; }
overhead() {
	printf '%-40s %8.1f ms   cpu %6.1f ms\n' "  overhead over sh -c" \
		"$(echo "$(median "$1") - $(median "$2")" | bc -l)" "$(echo "$(cpu "$1") - $(cpu "$2")" | bc -l)"
}
report "sh -c, the handler alone" direct
report "hookctl run, 1 hook" run-1
overhead run-1 direct
report "hookctl run, 2,000 hooks, 1 matching" run-2000
overhead run-2000 direct
report "  the same, 2,000 distinct matchers" run-2000-distinct
overhead run-2000-distinct direct
report "sh -c, one 200 ms handler" direct-sleep
report "hookctl run, 8 handlers of 200 ms" run-8x200ms
report "hookctl --version (start-up)" startup
report "a Go program that prints a line" hello-go

/usr/bin/time -v $run --config flood.json > flood.out 2> flood.err || true
rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' flood.err)
printf '%-40s %8.1f MB\n' "peak RSS, a handler printing 100 MB" "$(echo "$rss / 1024" | bc -l)"
printf '  answer: %s\n' "$(cat flood.out)"
