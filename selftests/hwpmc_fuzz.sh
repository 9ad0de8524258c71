#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: the ioctl fuzzer (hwpmc_fuzz.c) for a bounded time,
# then "rmmod hwpmc" must succeed.  Run as root with the module loaded.
#   HWPMC_FUZZ_SECONDS   how long (default 60)
#   HWPMC_FUZZ_SEED      a seed to repeat (default: a new one, printed)
#   HWPMC_FUZZ_ARGS      more arguments (-p PROCS -t THREADS)
exec ./hwpmc_fuzz -d "${HWPMC_FUZZ_SECONDS:-60}" ${HWPMC_FUZZ_SEED:+-s "$HWPMC_FUZZ_SEED"} \
	-r ${HWPMC_FUZZ_ARGS:-}
