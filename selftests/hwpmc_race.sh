#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: the concurrency fuzzer (hwpmc_race.c) for a bounded
# time, with the module reloaded around it.  Run as root with the module
# loaded.
#   HWPMC_RACE_SECONDS  how long (default 40; 75 in the debug guest)
#   HWPMC_RACE_SEED     a seed to repeat (default: a new one, printed)
#   HWPMC_RACE_ARGS     more arguments (-p PROCS -t THREADS -H -L -R)
secs=40
[ -n "${HWPMC_SLOW_GUEST:-}" ] && secs=75
exec ./hwpmc_race -d "${HWPMC_RACE_SECONDS:-$secs}" \
	${HWPMC_RACE_SEED:+-s "$HWPMC_RACE_SEED"} -r ${HWPMC_RACE_ARGS:-}
