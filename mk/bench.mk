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
#   make bench-report    reports: hwpmc-stat -R against perf report, on the
#                        host (no module); build/bench-results/report-host.txt
#                        (REPORT_ARGS: report_bench's options, e.g. -r 3)
#   make bench-report-dwarf  the same of a perf record --call-graph dwarf
#                        of a C++ program (DWARF_SECS=10: 40000 samples);
#                        build/bench-results/report-dwarf-host.txt

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

# ---- reports against perf report, on the host (bench/report_bench.c) ----
# A program and a library of ~1900 functions, generated (report_bench src)
# and built without optimisation (fast to compile, varied sizes): the
# samples' code.  The unit tests build their own copy under $(UT).

RB_CFLAGS	:= $(U_CPPFLAGS) -I$(U_SRC)/tests/unit $(filter-out -fvisibility=hidden -MMD -MP,$(U_CFLAGS))
RB_DEPS		:= bench/report_bench.c tests/unit/pmclog_build.h $(USER_HEADERS)
# its ELF files' symbols: libelf (libelf-dev)
RB_LIBS		:= $(shell $(PKG_CONFIG) --libs libelf 2>/dev/null || echo -lelf)

$(B)/bench/report_bench $(UT)/report_bench: $(RB_DEPS)
	@mkdir -p $(@D)
	$(CC) $(RB_CFLAGS) -o $@ $< $(RB_LIBS) -lm

# DIR/rb_lib.c, DIR/rb_prog.c, then DIR/librb.so and DIR/rb_prog
%/rb/rb_prog.c: %/report_bench
	@mkdir -p $(@D)
	$< src $(@D)

%/rb/librb.so: %/rb/rb_prog.c
	$(CC) -O0 -fPIC -shared -o $@ $(@D)/rb_lib.c

%/rb/rb_prog: %/rb/rb_prog.c %/rb/librb.so
	$(CC) -O0 -o $@ $< -L$(@D) -lrb -Wl,-rpath,'$$ORIGIN'

RB_HOST		:= $(B)/bench/report_bench $(B)/bench/rb/rb_prog $(B)/bench/rb/librb.so
RB_UNIT		:= $(UT)/report_bench $(UT)/rb/rb_prog $(UT)/rb/librb.so
.SECONDARY: $(B)/bench/rb/rb_prog.c $(UT)/rb/rb_prog.c

bench-report: $(RB_HOST) $(B)/bin/hwpmc-stat
	@mkdir -p $(B)/bench-results
	@{ $(B)/bench/report_bench -d $(B)/bench/report-data -H $(B)/bin/hwpmc-stat \
		$(REPORT_ARGS) $(B)/bench/rb/rb_prog $(B)/bench/rb/librb.so; \
		echo $$? > $(B)/bench-results/report-host.rc; } | \
		tee $(B)/bench-results/report-host.txt
	@exit $$(cat $(B)/bench-results/report-host.rc)

# ---- DWARF-unwinding reports against perf report, on the host ----
# perf record --call-graph dwarf of the selftests' C++ program (-O2, no
# frame pointers: std::sort, and its library unstripped) gives the
# samples; report_bench dwarf writes them as an hwpmc log and times
# hwpmc-stat -R against perf report (DWARF_SECS: the program's CPU
# seconds, 4000 samples each).
DWARF_SECS	?= 10
DW_DIR		:= $(B)/bench/dw
DW_CXXFLAGS	:= -std=c++17 -O2 -g -fomit-frame-pointer

$(DW_DIR)/libhwpmc_sortlib.so: selftests/hwpmc_sortlib.cc
	@mkdir -p $(@D)
	$(CXX) $(DW_CXXFLAGS) -fPIC -shared -o $@ $<

$(DW_DIR)/dw_prog: selftests/hwpmc_nofp_sort.cc $(DW_DIR)/libhwpmc_sortlib.so
	$(CXX) $(DW_CXXFLAGS) -o $@ $< -L$(@D) -lhwpmc_sortlib -Wl,-rpath,'$$ORIGIN'

bench-report-dwarf: $(B)/bench/report_bench $(DW_DIR)/dw_prog $(B)/bin/hwpmc-stat
	@mkdir -p $(B)/bench-results
	perf record -q -e cpu-clock:u -F 4000 --call-graph dwarf -o $(DW_DIR)/perf.data \
		$(DW_DIR)/dw_prog $(DWARF_SECS)
	@{ $(B)/bench/report_bench dwarf -d $(DW_DIR) -H $(B)/bin/hwpmc-stat \
		$(REPORT_ARGS) $(DW_DIR)/perf.data; \
		echo $$? > $(B)/bench-results/report-dwarf-host.rc; } | \
		tee $(B)/bench-results/report-dwarf-host.txt
	@exit $$(cat $(B)/bench-results/report-dwarf-host.rc)

# the quick variant runs in check-unit (tests/unit/test_report_bench.sh)
check-unit: $(RB_UNIT) $(UT)/pty_run

# hwpmc-stat on a terminal (the progress line of long reports, -w's
# rule): check-unit's tests run it on a pseudo-terminal
$(UT)/pty_run: tests/unit/pty_run.c
	@mkdir -p $(@D)
	$(CC) $(filter-out -fvisibility=hidden -MMD -MP,$(U_CFLAGS)) -o $@ $<

.PHONY: bench bench-vm bench-report bench-report-dwarf
