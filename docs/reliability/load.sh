#!/bin/sh
# Reproduces the figures of docs/reliability.md, "Under load, and the faults
# an attacker found": from the repository's root, or from anywhere,
#
#   docs/reliability/load.sh [RUNS [ROUNDS [KILLS]]]
#
# RUNS hookctl run processes are started at once per round (default 1000),
# ROUNDS rounds (default 3), while the trust of their workspace is revoked
# and granted again every 20 ms; KILLS hookctl init processes are killed
# with SIGKILL at random points (default 100). Then the handler faults
# (floods, daemons, stopped handlers, signals), a write on a full disk, and
# the hostile files. Each step is a Go test that fails when a property does
# not hold; -v prints the counts the page quotes. Expect a few minutes, and
# some gigabytes of memory for a thousand runs at once.
set -eu
cd "$(dirname "$0")/../.."
runs=${1:-1000}
rounds=${2:-3}
kills=${3:-100}

step() {
	printf '\n== %s\n' "$1"
	shift
	"$@"
}

step "$runs runs at once, $rounds rounds, trust flipping every 20 ms" \
	env HOOKCTL_LOAD="$runs" HOOKCTL_LOAD_ROUNDS="$rounds" HOOKCTL_LOAD_SPREAD=0 \
	go test ./cmd/hookctl -run '^TestLoadRunsWhileTrustFlips$' -count=1 -v -timeout 60m
step "$kills kills of hookctl init" \
	env HOOKCTL_KILLS="$kills" go test ./cmd/hookctl -run '^TestInitKilled$' -count=1 -v -timeout 30m
step "handlers that hang, flood, fork, ignore signals or escape their group" \
	go test ./runtime -run '^(TestFaults|TestNoInjection|TestOrphans|TestEveryDescendantDiesWithItsHandler|TestRunKilledWithSIGKILL)' -count=1 -v
step "a full disk under the log" \
	go test ./runtime/tracelog -run '^TestAppend(OnAFullDisk|AfterACutRecord|ConcurrentProcessesRotateOnce)$' -count=1 -v
step "a killed edit, undone by the next" \
	go test ./scaffold -run '^(TestAKilledTxIsUndoneByTheNext|TestACommittedTxKilledIsFinished)$' -count=1 -v
step "hostile files: code run by init, process files, deep settings" \
	go test ./cmd/hookctl -run '^TestScripts$/^(init-untrusted-code|hostile_environ|hostile_pagemap|settings_deep)$' -count=1 -v
step "the agent's log and the language server" \
	go test ./cmd/hookctl -run '^(TestDoctorLogShowsNoEscapes|TestLspReadsNoProcessFile)$' -count=1 -v
