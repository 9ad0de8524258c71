#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: the ioctl fuzzer (hwpmc_fuzz.c) for a bounded time,
# then "rmmod hwpmc" must succeed.  Run as root with the module loaded.
#   HWPMC_FUZZ_SECONDS   how long (default 60; 30 on arm64, whose
#                        -icount guest runs its 60 s in about 6 minutes
#                        of host time, the longest program of its suite)
#   HWPMC_FUZZ_SEED      a seed to repeat (default: a new one, printed)
#   HWPMC_FUZZ_ARGS      more arguments (-p PROCS -t THREADS)
secs=60
case $(uname -m) in aarch64|arm64) secs=30 ;; esac
exec ./hwpmc_fuzz -d "${HWPMC_FUZZ_SECONDS:-$secs}" ${HWPMC_FUZZ_SEED:+-s "$HWPMC_FUZZ_SEED"} \
	-r ${HWPMC_FUZZ_ARGS:-}
