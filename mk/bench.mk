# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: the benchmark suite against perf (bench/,
# docs/performance.md).  Included from the top-level Makefile after
# mk/user.mk (the programs link libhwpmc.a).
#
#   make bench           build $(B)/bench/hwpmc_bench, suite.sh, profile.sh
#   make bench-vm        run the suite in guests (scripts/bench.sh; KERNEL=
#                        one kernel, default every guest); results in
#                        build/bench-results/KERNEL.txt
#   make bench-vm QUICK=1   the short variant (what make check runs)

BENCH_PROGS	:= $(B)/bench/hwpmc_bench $(B)/bench/suite.sh $(B)/bench/profile.sh

bench: $(BENCH_PROGS)

$(B)/bench/hwpmc_bench: bench/hwpmc_bench.c $(LIB_A) $(USER_HEADERS) libhwpmc/pmc.h
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) -std=gnu11 -O2 -g -Wall -Wextra -Werror \
		$(if $(filter 1,$(STATIC)),-static) -o $@ $< $(LIB_A) $(LIB_LIBS)

$(B)/bench/%.sh: bench/%.sh
	@mkdir -p $(@D)
	cp $< $@

bench-vm:
	$(CURDIR)/scripts/bench.sh $(if $(filter 1,$(QUICK)),--quick) $(KERNEL)

.PHONY: bench bench-vm
