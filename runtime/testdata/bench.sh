#!/bin/sh
# Whole-process figures of hookctl run, measured side by side in one run.
#
#   sh runtime/testdata/bench.sh            (from the repository's root)
#
# Needs hyperfine (apt-get install hyperfine, brew install hyperfine), jq and
# GNU time (/usr/bin/time -v). Prints one line per figure: the median of
# each command and, for overheads, the difference of the medians.
set -eu

runs=${RUNS:-60}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/hookctl" ./cmd/hookctl
cd "$dir"
export HOME="$dir/home"
mkdir -p "$HOME"

allow='echo {\"decision\":\"allow\"}'
printf '{"toolCall":{"name":"run_command","args":{"CommandLine":"npm test"}},"stepIdx":0,"workspacePaths":["%s"]}\n' "$dir" > pre.json

# One hook; 2,000 hooks of which the last matches; eight 200 ms handlers;
# a handler that prints 100 MB.
printf '{"gate":{"PreToolUse":[{"matcher":"run_command","hooks":[{"command":"%s"}]}]}}\n' "$allow" > one.json
{
	echo '{'
	i=0
	while [ $i -lt 1999 ]; do
		printf '"hook-%d":{"PreToolUse":[{"matcher":"tool_%d|browser_.*","hooks":[{"command":"./hooks/h%d.sh","timeout":5}]}]},\n' $i $i $i
		i=$((i + 1))
	done
	printf '"gate":{"PreToolUse":[{"matcher":"run_command","hooks":[{"command":"%s"}]}]}}\n' "$allow"
} > big.json
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

hyperfine --style none --warmup 5 --runs "$runs" --export-json times.json \
	-n direct "sh -c '$allow' < pre.json" \
	-n run-1 "./hookctl run PreToolUse --config one.json < pre.json" \
	-n run-2000 "./hookctl run PreToolUse --config big.json < pre.json" \
	-n direct-sleep "sh -c 'sleep 0.2; $allow' < pre.json" \
	-n run-8x200ms "./hookctl run PreToolUse --config eight.json < pre.json" \
	-n startup "./hookctl --version" >/dev/null 2>hyperfine.log

median() { jq -r --arg n "$1" '.results[] | select(.command == $n) | .median * 1000' times.json; }
report() { printf '%-46s %8.1f %s\n' "$1" "$2" "${3:-ms}"; }
d=$(median direct)
report "sh -c, the handler alone (median)" "$d"
report "hookctl run, 1 hook (median)" "$(median run-1)"
report "  overhead over sh -c" "$(echo "$(median run-1) - $d" | bc -l)"
report "hookctl run, 2,000 hooks, 1 matching (median)" "$(median run-2000)"
report "  overhead over sh -c" "$(echo "$(median run-2000) - $d" | bc -l)"
report "sh -c, one 200 ms handler (median)" "$(median direct-sleep)"
report "hookctl run, 8 handlers of 200 ms (median)" "$(median run-8x200ms)"
report "hookctl --version, start-up (median)" "$(median startup)"

/usr/bin/time -v ./hookctl run PreToolUse --config flood.json < pre.json > flood.out 2> flood.err || true
rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' flood.err)
report "peak RSS, a handler printing 100 MB" "$(echo "$rss / 1024" | bc -l)" MB
printf '  answer: %s\n' "$(cat flood.out)"
