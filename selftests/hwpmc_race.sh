#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: the concurrency fuzzer (hwpmc_race.c) for a bounded
# time, with the module reloaded around it.  Run as root with the module
# loaded.
#   HWPMC_RACE_SECONDS  how long (default 30; 75 in the debug guest; 15
#                       on arm64, whose -icount guest is the slowest)
#   HWPMC_RACE_SEED     a seed to repeat (default: a new one, printed)
#   HWPMC_RACE_HOTPLUG  0: no CPU hotplug (it needs 0fe96a0, "backend:
#                       CPU-wide counters with the kernel's credentials,
#                       no worker": before it, creating a system PMC
#                       while a CPU goes offline deadlocks the module)
#   HWPMC_RACE_ARGS     more arguments (-p PROCS -t THREADS -L -R)
secs=30
case $(uname -m) in aarch64|arm64) secs=15 ;; esac
[ -n "${HWPMC_SLOW_GUEST:-}" ] && secs=75
hot=
[ "${HWPMC_RACE_HOTPLUG:-1}" = 0 ] && hot=-H
exec ./hwpmc_race -d "${HWPMC_RACE_SECONDS:-$secs}" \
	${HWPMC_RACE_SEED:+-s "$HWPMC_RACE_SEED"} -r $hot ${HWPMC_RACE_ARGS:-}
