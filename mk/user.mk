# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: userland build (libhwpmc, tools, host unit tests).
# Included from the top-level Makefile, which defines B, VERSION, PREFIX
# and DESTDIR.
#
#   make lib             $(B)/lib/libhwpmc.so.1, libhwpmc.so, libhwpmc.a, hwpmc.pc;
#                        libcpc.so.1, libcpc.so, libcpc.a, cpc.pc (libcpc(3))
#   make tools           $(B)/bin/hwpmc-control, hwpmc-stat, hwpmc-cputrack, hwpmc-cpustat
#   make check-unit      host unit tests under ASan+UBSan, TAP output
#   make install-user    library, headers (<pmc.h>, <pmclog.h>, <pmcformat.h>,
#                        <sys/pmc.h>, <sys/pmclog.h>, <linux/hwpmc*.h>), libcpc and its
#                        headers (<libcpc.h>, <libpctx.h>), pkg-config files,
#                        tools, man pages
#
# Cross and static builds:
#   make lib tools CC=aarch64-linux-gnu-gcc STATIC=1 WITH_KMOD=0 B=build/arm64
#   make lib tools CROSS_COMPILE=aarch64-linux-gnu- STATIC=1 WITH_KMOD=0 ...
# WITH_KMOD=0 drops libkmod: pmc_init() then diagnoses a missing module
# from /sys/module and /lib/modules instead.

CROSS_COMPILE	?=
ifeq ($(origin CC),default)
  CC		:= $(CROSS_COMPILE)gcc
endif
ifeq ($(origin AR),default)
  AR		:= $(CROSS_COMPILE)ar
endif
ifeq ($(origin CXX),default)
  CXX		:= $(CROSS_COMPILE)g++
endif
PKG_CONFIG	?= pkg-config
WITH_KMOD	?= 1
STATIC		?= 0
LIBDIR		?= $(PREFIX)/lib
INCLUDEDIR	?= $(PREFIX)/include
BINDIR		?= $(PREFIX)/bin
MANDIR		?= $(PREFIX)/share/man
PKGCONFIGDIR	?= $(LIBDIR)/pkgconfig

U_SRC		:= $(CURDIR)
U_CPPFLAGS	:= -I$(U_SRC)/include/uapi -I$(U_SRC)/include -I$(U_SRC)/libhwpmc
U_CFLAGS	:= -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -g \
		   -fvisibility=hidden -MMD -MP $(EXTRA_CFLAGS)
U_LDFLAGS	:= $(EXTRA_LDFLAGS)
ifeq ($(STATIC),1)
  # no NSS (getaddrinfo) in static programs: hwpmc-stat -O takes addresses
  U_CPPFLAGS	+= -DHWPMC_STATIC=1
endif

ifeq ($(WITH_KMOD),1)
  KMOD_CFLAGS	:= $(shell $(PKG_CONFIG) --cflags libkmod 2>/dev/null)
  KMOD_LIBS	:= $(shell $(PKG_CONFIG) $(if $(filter 1,$(STATIC)),--static) --libs libkmod 2>/dev/null || echo -lkmod)
  U_CPPFLAGS	+= -DHWPMC_WITH_KMOD=1 $(KMOD_CFLAGS)
  PC_REQUIRES	:= libkmod
else
  KMOD_LIBS	:=
  U_CPPFLAGS	+= -DHWPMC_WITH_KMOD=0
  PC_REQUIRES	:=
endif
LIB_LIBS	:= $(KMOD_LIBS) -pthread

# hwpmc-stat -T: ncurses (libncurses-dev).  WITH_CURSES=0 builds without
# -T; the default is 1 when the compiler finds the library (the arm64
# cross build has no ncurses: hwpmc-stat is built there without -T).
ifeq ($(origin WITH_CURSES),undefined)
  WITH_CURSES	:= $(if $(filter /%,$(shell $(CC) -print-file-name=$(if $(filter 1,$(STATIC)),libncurses.a,libncurses.so))),1,0)
endif
ifeq ($(WITH_CURSES),1)
  CURSES_CFLAGS	:= -DHWPMC_WITH_CURSES=1
  CURSES_LIBS	:= $(shell $(PKG_CONFIG) $(if $(filter 1,$(STATIC)),--static) --libs ncurses 2>/dev/null || echo -lncurses)
else
  CURSES_CFLAGS	:=
  CURSES_LIBS	:=
endif
# hwpmc-stat's symbols: elfutils' libdwfl (libdw-dev: separate debug
# files by build-id and .gnu_debuglink, debuginfod, source lines) and
# libiberty's demangler (libiberty-dev: C++ and Rust names).  WITH_DW=0,
# WITH_IBERTY=0 build without them (an ELF reader of hwpmc-stat's own:
# the file's .symtab or .dynsym; names as they are); the default is 1
# when the compiler finds the library (the arm64 cross build has
# neither: it gets the reader of its own).
ifeq ($(origin WITH_DW),undefined)
  WITH_DW	:= $(if $(filter /%,$(shell $(CC) -print-file-name=$(if $(filter 1,$(STATIC)),libdw.a,libdw.so))),1,0)
endif
ifeq ($(WITH_DW),1)
  DW_CFLAGS	:= -DHWPMC_WITH_DW=1 $(shell $(PKG_CONFIG) --cflags libdw 2>/dev/null)
  DW_LIBS	:= $(shell $(PKG_CONFIG) $(if $(filter 1,$(STATIC)),--static) --libs libdw 2>/dev/null || echo -ldw -lelf)
else
  DW_CFLAGS	:= -DHWPMC_WITH_DW=0
  DW_LIBS	:=
endif
ifeq ($(origin WITH_IBERTY),undefined)
  WITH_IBERTY	:= $(if $(filter /%,$(shell $(CC) -print-file-name=libiberty.a)),1,0)
endif
ifeq ($(WITH_IBERTY),1)
  DW_CFLAGS	+= -DHWPMC_WITH_IBERTY=1
  DW_LIBS	+= -liberty
else
  DW_CFLAGS	+= -DHWPMC_WITH_IBERTY=0
endif
# hwpmc-stat --annotate: capstone's disassembler (libcapstone-dev), with
# libdwfl's code and lines.  WITH_CAPSTONE=0 builds without --annotate
# (hwpmc-stat says so); the default is 1 when the compiler finds the
# library (the arm64 cross build has none).
ifeq ($(origin WITH_CAPSTONE),undefined)
  WITH_CAPSTONE	:= $(if $(filter /%,$(shell $(CC) -print-file-name=$(if $(filter 1,$(STATIC)),libcapstone.a,libcapstone.so))),1,0)
endif
ifeq ($(WITH_CAPSTONE),1)
  DW_CFLAGS	+= -DHWPMC_WITH_CAPSTONE=1
  DW_LIBS	+= $(shell $(PKG_CONFIG) $(if $(filter 1,$(STATIC)),--static) --libs capstone 2>/dev/null || echo -lcapstone)
else
  DW_CFLAGS	+= -DHWPMC_WITH_CAPSTONE=0
endif
# hwpmc-stat --pprof: protobuf-c (protoc-c makes the C of
# tools/profile.proto at build time: protobuf-c-compiler, libprotobuf-c-dev)
# and zlib (zlib1g-dev).  WITH_PPROF=0 builds without --pprof; the default
# is 1 when protoc-c is there and the compiler finds both libraries (the
# arm64 cross build has neither: hwpmc-stat is built there without it).
PROTOC_C	?= protoc-c
ifeq ($(origin WITH_PPROF),undefined)
  WITH_PPROF	:= $(if $(and $(shell command -v $(PROTOC_C) 2>/dev/null),$(filter /%,$(shell $(CC) -print-file-name=$(if $(filter 1,$(STATIC)),libprotobuf-c.a,libprotobuf-c.so))),$(filter /%,$(shell $(CC) -print-file-name=$(if $(filter 1,$(STATIC)),libz.a,libz.so)))),1,0)
endif
ifeq ($(WITH_PPROF),1)
  PPROF_CFLAGS	:= -DHWPMC_WITH_PPROF=1 -I$(B)/gen
  PPROF_LIBS	:= $(shell $(PKG_CONFIG) $(if $(filter 1,$(STATIC)),--static) --libs libprotobuf-c zlib 2>/dev/null || echo -lprotobuf-c -lz)
  PPROF_OBJ	:= $(B)/obj/tools/profile.pb-c.o
  UT_PPROF_OBJ	:= $(B)/unit/obj/tools/profile.pb-c.o
else
  PPROF_CFLAGS	:=
  PPROF_LIBS	:=
  PPROF_OBJ	:=
  UT_PPROF_OBJ	:=
endif
PROTO_C		:= $(B)/gen/profile.pb-c.c
PROTO_H		:= $(B)/gen/profile.pb-c.h

STAT_SRCS	:= tools/pmcstat_opts.c tools/pmcstat_plan.c tools/pmcstat_run.c \
		   tools/pmcstat_count.c tools/pmcstat_sample.c \
		   tools/pmcstat_sym.c tools/pmcstat_report.c tools/pmcstat_export.c \
		   tools/pmcstat_flame.c tools/pmcstat_annotate.c tools/pmcstat_metric.c \
		   tools/pmcstat_gmon.c tools/pmcstat_unwind.c

LIB_SRCS	:= libhwpmc/pmc_init.c libhwpmc/pmc_ops.c libhwpmc/pmc_names.c \
		   libhwpmc/pmc_modcheck.c libhwpmc/pmc_counting.c \
		   libhwpmc/pmc_spec.c libhwpmc/pmc_pmu.c \
		   libhwpmc/pmc_pmu_api.c libhwpmc/pmc_perf.c libhwpmc/pmclog.c
LIB_PIC_OBJS	:= $(patsubst libhwpmc/%.c,$(B)/obj/lib-pic/%.o,$(LIB_SRCS)) \
		   $(B)/obj/lib-pic/pmu_events_data.o
LIB_OBJS	:= $(patsubst libhwpmc/%.c,$(B)/obj/lib/%.o,$(LIB_SRCS)) \
		   $(B)/obj/lib/pmu_events_data.o
LIB_SO		:= $(B)/lib/libhwpmc.so.1
LIB_A		:= $(B)/lib/libhwpmc.a
LIB_PC		:= $(B)/lib/hwpmc.pc
TOOLS		:= $(B)/bin/hwpmc-control $(B)/bin/hwpmc-stat \
		   $(B)/bin/hwpmc-cputrack $(B)/bin/hwpmc-cpustat
STAT_OBJS	:= $(patsubst tools/%.c,$(B)/obj/tools/%.o,$(STAT_SRCS)) $(PPROF_OBJ) \
		   $(B)/obj/tools/pmu_metrics_data.o
TOOL_OBJS	:= $(B)/obj/tools/hwpmc-control.o $(B)/obj/tools/hwpmc-stat.o $(STAT_OBJS) \
		   $(B)/obj/tools/hwpmc-cputrack.o $(B)/obj/tools/hwpmc-cpustat.o \
		   $(B)/obj/tools/cpc_spec.o $(B)/obj/tools/tool_util.o
USER_HEADERS	:= include/uapi/linux/hwpmc.h include/uapi/linux/hwpmclog.h
# FreeBSD's <pmc.h>, <pmclog.h>, <pmcformat.h> (C++, header only), and
# <sys/pmc.h>, <sys/pmclog.h>: the pmc(3) view of the uapi
LIB_HEADERS	:= libhwpmc/pmc.h libhwpmc/pmclog.h libhwpmc/pmcformat.h
LIB_SYS_HEADERS	:= libhwpmc/sys/pmc.h libhwpmc/sys/pmclog.h libhwpmc/sys/_pmc_undef.h

# libcpc(3): illumos' libcpc over libhwpmc (libcpc/)
CPC_SRCS	:= libcpc/cpc_open.c libcpc/cpc_set.c libcpc/cpc_bind.c libcpc/cpc_smpl.c \
		   libcpc/pctx.c
CPC_HEADERS	:= libcpc/libcpc.h libcpc/libpctx.h
CPC_CPPFLAGS	:= -I$(U_SRC)/libcpc
CPC_PIC_OBJS	:= $(patsubst libcpc/%.c,$(B)/obj/cpc-pic/%.o,$(CPC_SRCS))
CPC_OBJS	:= $(patsubst libcpc/%.c,$(B)/obj/cpc/%.o,$(CPC_SRCS))
CPC_SO		:= $(B)/lib/libcpc.so.1
CPC_A		:= $(B)/lib/libcpc.a
CPC_PC		:= $(B)/lib/cpc.pc

lib: $(LIB_SO) $(B)/lib/libhwpmc.so $(LIB_A) $(LIB_PC) \
     $(CPC_SO) $(B)/lib/libcpc.so $(CPC_A) $(CPC_PC)

# ---- vendor events: the kernel's pmu-events JSON tables, made into C ----
# The JSON (tools/perf/pmu-events/arch/{x86,arm64}) is extracted at build
# time from Debian's linux-source package, or taken from PMU_EVENTS_DIR
# (an arch/ directory of a kernel tree); libhwpmc/gen_pmu_events.py turns
# it into tables compiled into the library (docs/design.md, "Vendor
# events").  Nothing of it is committed.
PYTHON		?= python3
PMU_EVENTS_TARBALL ?= $(lastword $(sort $(wildcard /usr/src/linux-source-*.tar.xz)))
PE_C		:= $(B)/gen/pmu_events_data.c
ifeq ($(origin PMU_EVENTS_DIR),undefined)
PMU_EVENTS_DIR	:= $(B)/pmu-events/arch
PE_STAMP	:= $(B)/pmu-events/.extracted
$(PE_STAMP):
	@test -n "$(PMU_EVENTS_TARBALL)" || { echo "error: no kernel source for the pmu-events tables: apt-get install linux-source-6.12, or set PMU_EVENTS_DIR=<kernel>/tools/perf/pmu-events/arch" >&2; exit 1; }
	rm -rf $(B)/pmu-events
	@mkdir -p $(B)/pmu-events
	tar -xJf $(PMU_EVENTS_TARBALL) -C $(B)/pmu-events --strip-components=4 \
		--wildcards '*/tools/perf/pmu-events/arch/x86' \
		'*/tools/perf/pmu-events/arch/arm64'
	touch $@
else
PE_STAMP	:=
endif

# libpfm4's names of the same events (docs/design.md decision 32): a
# generator built for the build host with Debian's libpfm4 (libpfm4-dev)
# lists libpfm4's events with their encodings; gen_pmu_events.py --pfm
# makes the names of those whose encoding is a table event's into its
# aliases.  WITH_PFM=0, or no libpfm4-dev on the build host: no aliases.
# The list is the build host's libpfm4's (Debian's amd64 one knows x86
# models only), also for a cross build.
HOSTCC		?= cc
ifeq ($(origin WITH_PFM),undefined)
  WITH_PFM	:= $(if $(and $(wildcard /usr/include/perfmon/pfmlib_perf_event.h),$(filter /%,$(shell $(HOSTCC) -print-file-name=libpfm.so))),1,0)
endif
ifeq ($(WITH_PFM),1)
PFM_GEN		:= $(B)/gen/gen_pfm_events
PFM_TSV		:= $(B)/gen/pfm_events.tsv
PFM_ARGS	:= --pfm $(PFM_TSV)
$(PFM_GEN): libhwpmc/gen_pfm_events.c
	@mkdir -p $(@D)
	$(HOSTCC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 $< -o $@ -lpfm

$(PFM_TSV): $(PFM_GEN)
	$(PFM_GEN) > $@.tmp
	mv $@.tmp $@
else
PFM_TSV		:=
PFM_ARGS	:=
endif

$(PE_C): libhwpmc/gen_pmu_events.py $(PE_STAMP) $(PFM_TSV)
	@mkdir -p $(@D)
	$(PYTHON) libhwpmc/gen_pmu_events.py $(PFM_ARGS) $(PMU_EVENTS_DIR) $@

$(B)/obj/lib-pic/pmu_events_data.o: $(PE_C) libhwpmc/pmu_events.h
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(filter-out -g -MMD -MP,$(U_CFLAGS)) -fPIC -c $< -o $@

$(B)/obj/lib/pmu_events_data.o: $(PE_C) libhwpmc/pmu_events.h
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(filter-out -g -MMD -MP,$(U_CFLAGS)) -c $< -o $@

# The same tables' derived metrics, for hwpmc-stat -M (tools/pmu_metrics.h):
# compiled into hwpmc-stat, not the library.
PM_C		:= $(B)/gen/pmu_metrics_data.c
$(PM_C): libhwpmc/gen_pmu_events.py $(PE_STAMP)
	@mkdir -p $(@D)
	$(PYTHON) libhwpmc/gen_pmu_events.py --metrics $(PMU_EVENTS_DIR) $@

$(B)/obj/tools/pmu_metrics_data.o: $(PM_C) tools/pmu_metrics.h
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) -I$(U_SRC)/tools $(filter-out -g -MMD -MP,$(U_CFLAGS)) -c $< -o $@

tools: $(TOOLS)

$(B)/obj/lib-pic/%.o: libhwpmc/%.c
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(U_CFLAGS) -fPIC -c $< -o $@

$(B)/obj/lib/%.o: libhwpmc/%.c
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(U_CFLAGS) -c $< -o $@

$(LIB_SO): $(LIB_PIC_OBJS)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,libhwpmc.so.1 -Wl,-z,defs -Wl,--as-needed \
		$(U_LDFLAGS) -o $@ $^ $(LIB_LIBS)

$(B)/lib/libhwpmc.so: $(LIB_SO)
	ln -sf libhwpmc.so.1 $@

$(LIB_A): $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(LIB_PC): libhwpmc/hwpmc.pc.in mk/user.mk
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
	    -e 's|@REQUIRES_PRIVATE@|$(PC_REQUIRES)|g' $< > $@

$(B)/obj/cpc-pic/%.o: libcpc/%.c
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(CPC_CPPFLAGS) $(U_CFLAGS) -fPIC -c $< -o $@

$(B)/obj/cpc/%.o: libcpc/%.c
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(CPC_CPPFLAGS) $(U_CFLAGS) -c $< -o $@

$(CPC_SO): $(CPC_PIC_OBJS) $(LIB_SO) $(B)/lib/libhwpmc.so
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,libcpc.so.1 -Wl,-z,defs -Wl,--as-needed \
		$(U_LDFLAGS) -o $@ $(CPC_PIC_OBJS) -L$(B)/lib -lhwpmc

$(B)/lib/libcpc.so: $(CPC_SO)
	ln -sf libcpc.so.1 $@

$(CPC_A): $(CPC_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(CPC_PC): libcpc/cpc.pc.in mk/user.mk
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' $< > $@

# hwpmc-cputrack, hwpmc-cpustat: libcpc(3)'s clients
CPC_TOOL_SRCS	:= tools/hwpmc-cputrack.c tools/hwpmc-cpustat.c tools/cpc_spec.c
$(patsubst tools/%.c,$(B)/obj/tools/%.o,$(CPC_TOOL_SRCS)): $(B)/obj/tools/%.o: tools/%.c
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(CPC_CPPFLAGS) $(U_CFLAGS) -c $< -o $@

$(B)/obj/tools/%.o: tools/%.c
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(CURSES_CFLAGS) $(PPROF_CFLAGS) $(DW_CFLAGS) $(U_CFLAGS) -c $< -o $@

# pprof's profile.proto in C (both files at once: the .c's rule makes the .h)
$(PROTO_C): tools/profile.proto
	@mkdir -p $(@D)
	$(PROTOC_C) --proto_path=tools --c_out=$(@D) $<
$(PROTO_H): $(PROTO_C)

$(B)/obj/tools/profile.pb-c.o: $(PROTO_C)
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(PPROF_CFLAGS) $(filter-out -MMD -MP,$(U_CFLAGS)) -c $< -o $@

ifeq ($(WITH_PPROF),1)
$(B)/obj/tools/pmcstat_export.o $(B)/unit/obj/tools/pmcstat_export.o: $(PROTO_H)
endif

ifeq ($(STATIC),1)
$(B)/bin/hwpmc-stat: $(B)/obj/tools/hwpmc-stat.o $(STAT_OBJS) $(LIB_A)
	@mkdir -p $(@D)
	$(CC) -static $(U_LDFLAGS) -o $@ $^ $(CURSES_LIBS) $(PPROF_LIBS) $(DW_LIBS) $(LIB_LIBS)

$(B)/bin/hwpmc-cputrack $(B)/bin/hwpmc-cpustat: $(B)/bin/%: $(B)/obj/tools/%.o \
		$(B)/obj/tools/cpc_spec.o $(B)/obj/tools/tool_util.o $(CPC_A) $(LIB_A)
	@mkdir -p $(@D)
	$(CC) -static $(U_LDFLAGS) -o $@ $^ $(LIB_LIBS)

$(B)/bin/hwpmc-control: $(B)/obj/tools/hwpmc-control.o $(B)/obj/tools/tool_util.o $(LIB_A)
	@mkdir -p $(@D)
	$(CC) -static $(U_LDFLAGS) -o $@ $^ $(LIB_LIBS)

$(B)/bin/%: $(B)/obj/tools/%.o $(LIB_A)
	@mkdir -p $(@D)
	$(CC) -static $(U_LDFLAGS) -o $@ $^ $(LIB_LIBS)
else
$(B)/bin/hwpmc-stat: $(B)/obj/tools/hwpmc-stat.o $(STAT_OBJS) $(LIB_SO) $(B)/lib/libhwpmc.so
	@mkdir -p $(@D)
	$(CC) $(U_LDFLAGS) -o $@ $(filter %.o,$^) -L$(B)/lib -lhwpmc $(CURSES_LIBS) $(PPROF_LIBS) $(DW_LIBS) \
		-Wl,-rpath,'$$ORIGIN/../lib'

$(B)/bin/hwpmc-cputrack $(B)/bin/hwpmc-cpustat: $(B)/bin/%: $(B)/obj/tools/%.o \
		$(B)/obj/tools/cpc_spec.o $(B)/obj/tools/tool_util.o $(CPC_SO) $(B)/lib/libcpc.so
	@mkdir -p $(@D)
	$(CC) $(U_LDFLAGS) -o $@ $(filter %.o,$^) -L$(B)/lib -lcpc -lhwpmc -pthread \
		-Wl,-rpath,'$$ORIGIN/../lib'

$(B)/bin/hwpmc-control: $(B)/obj/tools/hwpmc-control.o $(B)/obj/tools/tool_util.o \
		$(LIB_SO) $(B)/lib/libhwpmc.so
	@mkdir -p $(@D)
	$(CC) $(U_LDFLAGS) -o $@ $(filter %.o,$^) -L$(B)/lib -lhwpmc \
		-Wl,-rpath,'$$ORIGIN/../lib'

$(B)/bin/%: $(B)/obj/tools/%.o $(LIB_SO) $(B)/lib/libhwpmc.so
	@mkdir -p $(@D)
	$(CC) $(U_LDFLAGS) -o $@ $< -L$(B)/lib -lhwpmc \
		-Wl,-rpath,'$$ORIGIN/../lib'
endif

# ---- host unit tests: ASan + UBSan, everything linked statically in ----

UT		:= $(B)/unit
UT_SAN		:= -fsanitize=address,undefined -fno-sanitize-recover=all \
		   -fno-omit-frame-pointer
UT_CFLAGS	:= $(filter-out -fvisibility=hidden,$(U_CFLAGS)) $(UT_SAN) \
		   -I$(U_SRC)/tests/unit
UT_LIB_OBJS	:= $(patsubst libhwpmc/%.c,$(UT)/obj/lib/%.o,$(LIB_SRCS)) \
		   $(B)/obj/lib/pmu_events_data.o
HAVE_CXX	:= $(shell command -v $(CXX) 2>/dev/null)
UT_PROGS	:= $(UT)/test_names $(UT)/test_lib $(UT)/test_spec $(UT)/test_count \
		   $(UT)/test_allocate $(UT)/test_cpc $(UT)/cpc_example \
		   $(UT)/test_pmclog $(UT)/test_pmu $(UT)/test_perf $(UT)/test_compat \
		   $(UT)/test_metric \
		   $(if $(HAVE_CXX),$(UT)/test_compat_cxx) \
		   $(UT)/hwpmc-control $(UT)/hwpmc-stat \
		   $(UT)/hwpmc-cputrack $(UT)/hwpmc-cpustat \
		   $(UT)/abi_layout $(UT)/fake_hwpmc.so $(UT)/mklog $(UT)/unwind_prog \
		   $(if $(filter 1,$(WITH_PPROF)),$(UT)/pprof_read)

$(UT)/obj/lib/%.o: libhwpmc/%.c
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(UT_CFLAGS) -c $< -o $@

$(UT)/obj/cpc/%.o: libcpc/%.c
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(CPC_CPPFLAGS) $(UT_CFLAGS) -c $< -o $@

UT_CPC_OBJS	:= $(patsubst libcpc/%.c,$(UT)/obj/cpc/%.o,$(CPC_SRCS))

# libcpc(3) against the fake module
$(UT)/obj/test_cpc.o: tests/unit/test_cpc.c
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(CPC_CPPFLAGS) $(UT_CFLAGS) -c $< -o $@

$(UT)/test_cpc: $(UT)/obj/test_cpc.o $(UT)/obj/fake_hwpmc.o $(UT_CPC_OBJS) $(UT_LIB_OBJS)
	$(CC) $(UT_SAN) -o $@ $^ $(LIB_LIBS)


$(UT)/obj/%.o: tests/unit/%.c
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(UT_CFLAGS) -c $< -o $@

$(UT)/obj/hwpmc-control.o: tools/hwpmc-control.c
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(UT_CFLAGS) -c $< -o $@

$(UT)/test_names: $(UT)/obj/test_names.o $(UT_LIB_OBJS)
	$(CC) $(UT_SAN) -o $@ $^ $(LIB_LIBS)

$(UT)/test_pmclog: $(UT)/obj/test_pmclog.o $(UT_LIB_OBJS)
	$(CC) $(UT_SAN) -o $@ $^ $(LIB_LIBS)

$(UT)/test_lib: $(UT)/obj/test_lib.o $(UT)/obj/fake_hwpmc.o $(UT_LIB_OBJS)
	$(CC) $(UT_SAN) -o $@ $^ $(LIB_LIBS)

$(UT)/test_spec: $(UT)/obj/test_spec.o $(UT)/obj/fake_hwpmc.o $(UT_LIB_OBJS)
	$(CC) $(UT_SAN) -o $@ $^ $(LIB_LIBS)

$(UT)/test_pmu: $(UT)/obj/test_pmu.o $(UT)/obj/fake_hwpmc.o $(UT_LIB_OBJS)
	$(CC) $(UT_SAN) -o $@ $^ $(LIB_LIBS)

$(UT)/test_perf: $(UT)/obj/test_perf.o $(UT)/obj/fake_hwpmc.o $(UT_LIB_OBJS)
	$(CC) $(UT_SAN) -o $@ $^ $(LIB_LIBS)

# metric expressions and tables (hwpmc-stat -M)
$(UT)/test_metric: $(UT)/obj/test_metric.o $(UT)/obj/tools/pmcstat_metric.o \
		   $(B)/obj/tools/pmu_metrics_data.o $(UT_LIB_OBJS)
	$(CC) $(UT_SAN) -o $@ $^ $(LIB_LIBS) -lm

$(UT)/test_count: $(UT)/obj/test_count.o $(UT)/obj/fake_hwpmc.o $(UT_LIB_OBJS)
	$(CC) $(UT_SAN) -o $@ $^ $(LIB_LIBS)

# PMCALLOCATE's policy (include/hwpmc_allocate.h): the fake and pmc(3)'s words
$(UT)/test_allocate: $(UT)/obj/test_allocate.o $(UT)/obj/fake_hwpmc.o $(UT_LIB_OBJS)
	$(CC) $(UT_SAN) -o $@ $^ $(LIB_LIBS)

$(UT)/obj/tools/%.o: tools/%.c
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(CURSES_CFLAGS) $(PPROF_CFLAGS) $(DW_CFLAGS) $(UT_CFLAGS) -c $< -o $@

$(UT)/obj/tools/profile.pb-c.o: $(PROTO_C)
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(PPROF_CFLAGS) $(filter-out -MMD -MP,$(UT_CFLAGS)) -c $< -o $@

$(UT)/hwpmc-stat: $(UT)/obj/tools/hwpmc-stat.o $(patsubst tools/%.c,$(UT)/obj/tools/%.o,$(STAT_SRCS)) \
		  $(UT_PPROF_OBJ) $(B)/obj/tools/pmu_metrics_data.o $(UT_LIB_OBJS)
	$(CC) $(UT_SAN) -o $@ $^ $(CURSES_LIBS) $(PPROF_LIBS) $(DW_LIBS) $(LIB_LIBS)

# the reader of --pprof's files in the tests: protobuf-c's decoder
$(UT)/pprof_read: tests/unit/pprof_read.c $(UT_PPROF_OBJ)
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(PPROF_CFLAGS) $(filter-out -MMD -MP,$(UT_CFLAGS)) -o $@ $^ $(PPROF_LIBS)

$(UT)/hwpmc-control: $(UT)/obj/hwpmc-control.o $(UT)/obj/tools/tool_util.o $(UT_LIB_OBJS)
	$(CC) $(UT_SAN) -o $@ $^ $(LIB_LIBS)

# hwpmc-cputrack, hwpmc-cpustat with libcpc, sanitized; the fake preloaded
$(patsubst tools/%.c,$(UT)/obj/tools/%.o,$(CPC_TOOL_SRCS)): $(UT)/obj/tools/%.o: tools/%.c
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(CPC_CPPFLAGS) $(UT_CFLAGS) -c $< -o $@

$(UT)/hwpmc-cputrack $(UT)/hwpmc-cpustat: $(UT)/%: $(UT)/obj/tools/%.o \
		$(UT)/obj/tools/cpc_spec.o $(UT)/obj/tools/tool_util.o $(UT_CPC_OBJS) $(UT_LIB_OBJS)
	$(CC) $(UT_SAN) -o $@ $^ $(LIB_LIBS)

# The fake module, preloaded into the tools: not instrumented.
$(UT)/fake_hwpmc.so: tests/unit/fake_hwpmc.c tests/unit/fake_hwpmc.h include/hwpmc_allocate.h \
			 include/uapi/linux/hwpmc.h
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(filter-out -fvisibility=hidden -MMD -MP,$(U_CFLAGS)) \
		-fPIC -shared -o $@ $<

# Report tests: a PIE program and its shared library, whose functions'
# run-time addresses make a synthetic log (tests/unit/mklog.c).
UT_ELF_CFLAGS	:= $(filter-out -fvisibility=hidden -MMD -MP,$(U_CFLAGS)) -O1 \
		   -fno-omit-frame-pointer -fno-inline
$(UT)/libut_symlib.so: tests/unit/ut_symlib.c
	@mkdir -p $(@D)
	$(CC) $(UT_ELF_CFLAGS) -fPIC -shared -o $@ $<

$(UT)/mklog: tests/unit/mklog.c tests/unit/pmclog_build.h $(UT)/libut_symlib.so \
		 $(USER_HEADERS)
	$(CC) $(U_CPPFLAGS) $(UT_ELF_CFLAGS) -fPIE -pie -o $@ $< \
		-L$(UT) -lut_symlib -Wl,-rpath,'$$ORIGIN'

# The unwinder's test: a program without frame pointers logging itself
$(UT)/unwind_prog: tests/unit/unwind_prog.c tests/unit/pmclog_build.h $(USER_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(filter-out -fvisibility=hidden -MMD -MP -fno-omit-frame-pointer \
		-fsanitize=%,$(U_CFLAGS)) -O2 -fomit-frame-pointer -fno-inline \
		-I$(U_SRC)/tests/unit -o $@ $<

# Source compatibility with FreeBSD's clients: C and C++ (g++ -std=c++17)
# programs written in FreeBSD's idioms, built against the headers staged
# as install-user installs them (and nothing else of the tree).
UT_INC		:= $(UT)/include
UT_COMPAT_CPPFLAGS := -I$(UT_INC) -I$(U_SRC)/tests/unit
UT_COMPAT_DEPS	:= $(UT_INC)/.stamp tests/unit/compat_values.h tests/unit/tap.h \
		   $(UT)/obj/compat_uapi.o $(UT)/obj/compat_order.o $(UT_LIB_OBJS)

$(UT_INC)/.stamp: $(LIB_HEADERS) $(LIB_SYS_HEADERS) $(USER_HEADERS) $(CPC_HEADERS)
	rm -rf $(UT_INC)
	mkdir -p $(UT_INC)/sys $(UT_INC)/linux
	cp $(LIB_HEADERS) $(CPC_HEADERS) $(UT_INC)/
	cp $(LIB_SYS_HEADERS) $(UT_INC)/sys/
	cp $(USER_HEADERS) $(UT_INC)/linux/
	touch $@

$(UT)/obj/compat_uapi.o: tests/unit/compat_uapi.c tests/unit/compat_values.h $(UT_INC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(UT_COMPAT_CPPFLAGS) $(filter-out -MMD -MP,$(UT_CFLAGS)) -c $< -o $@

$(UT)/obj/compat_order.o: tests/unit/compat_order.c $(UT_INC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(UT_COMPAT_CPPFLAGS) $(filter-out -MMD -MP,$(UT_CFLAGS)) -c $< -o $@

$(UT)/test_compat: tests/unit/test_compat.c $(UT_COMPAT_DEPS)
	$(CC) $(UT_COMPAT_CPPFLAGS) $(filter-out -MMD -MP,$(UT_CFLAGS)) -o $@ $< \
		$(UT)/obj/compat_uapi.o $(UT)/obj/compat_order.o $(UT_LIB_OBJS) $(LIB_LIBS)

$(UT)/test_compat_cxx: tests/unit/test_compat.cc $(UT_COMPAT_DEPS)
	$(CXX) -std=c++17 -Wall -Wextra -Werror -O2 -g $(UT_SAN) $(UT_COMPAT_CPPFLAGS) \
		-o $@ $< $(UT)/obj/compat_uapi.o $(UT_LIB_OBJS) $(LIB_LIBS)

# A client in the style of cpc_bind_curlwp(3CPC)'s example, built
# unchanged against the headers as installed (-Wall -Wextra -Werror).
$(UT)/cpc_example: tests/unit/cpc_example.c $(UT_INC)/.stamp $(UT)/obj/fake_hwpmc.o \
		   $(UT_CPC_OBJS) $(UT_LIB_OBJS)
	$(CC) -I$(UT_INC) $(filter-out -MMD -MP -D_GNU_SOURCE,$(UT_CFLAGS)) -o $@ $< \
		$(UT)/obj/fake_hwpmc.o $(UT_CPC_OBJS) $(UT_LIB_OBJS) $(LIB_LIBS)

# ABI layout: host program (names, padding rules) + -m64/-m32 objects.
$(UT)/abi_layout: tests/unit/abi_layout.c $(USER_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(filter-out -MMD -MP,$(UT_CFLAGS)) -DLAYOUT_MAIN -o $@ $<

# ---- the pmclog(3) fuzz target: libFuzzer (clang), run by check-unit ----
#   make fuzz                      build it and its seed corpus generator
#   make check-unit FUZZ_TIME=600  fuzz longer (0: not at all)
# Without clang (scripts/deps.sh: clang, libclang-rt-14-dev) check-unit
# reports the fuzz run as skipped.

FUZZ_CC		?= clang
FUZZ_TIME	?= 60
FZ		:= $(B)/fuzz
FUZZ_BINS	:= $(FZ)/fuzz_pmclog $(FZ)/pmclog_seeds
HAVE_FUZZ_CC	:= $(shell command -v $(FUZZ_CC) 2>/dev/null)

fuzz: $(FUZZ_BINS)

$(FZ)/fuzz_pmclog: tests/fuzz/fuzz_pmclog.c libhwpmc/pmclog.c libhwpmc/pmclog.h \
		   libhwpmc/pmc.h $(LIB_SYS_HEADERS) include/uapi/linux/hwpmclog.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(U_CPPFLAGS) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -g -O1 \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-o $@ tests/fuzz/fuzz_pmclog.c libhwpmc/pmclog.c

$(FZ)/pmclog_seeds: tests/fuzz/pmclog_seeds.c tests/unit/pmclog_build.h \
		    include/uapi/linux/hwpmclog.h
	@mkdir -p $(@D)
	$(CC) $(U_CPPFLAGS) $(filter-out -fvisibility=hidden -MMD -MP,$(U_CFLAGS)) \
		-I$(U_SRC)/tests/unit -o $@ $<

check-unit: $(UT_PROGS) $(LIB_SO) $(CPC_SO) $(if $(HAVE_FUZZ_CC),$(FUZZ_BINS))
	@UT=$(UT) SRC=$(U_SRC) CC="$(CC)" CXX="$(CXX)" CPPFLAGS="$(U_CPPFLAGS)" LIBSO=$(LIB_SO) \
		CPCSO=$(CPC_SO) PFM_TSV=$(PFM_TSV) \
		COMPAT_CXX="$(if $(HAVE_CXX),$(UT)/test_compat_cxx)" \
		FUZZER=$(FZ)/fuzz_pmclog SEEDGEN=$(FZ)/pmclog_seeds \
		FUZZ_CORPUS=$(FZ)/corpus FUZZ_TIME=$(FUZZ_TIME) \
		sh $(U_SRC)/tests/unit/run.sh

# ---- install ----

install-user: lib tools
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(INCLUDEDIR)/linux $(DESTDIR)$(BINDIR)
	install -m 0755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/libhwpmc.so.1
	ln -sf libhwpmc.so.1 $(DESTDIR)$(LIBDIR)/libhwpmc.so
	install -m 0644 $(LIB_A) $(DESTDIR)$(LIBDIR)/libhwpmc.a
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
	    -e 's|@REQUIRES_PRIVATE@|$(PC_REQUIRES)|g' libhwpmc/hwpmc.pc.in \
	    > $(DESTDIR)$(PKGCONFIGDIR)/hwpmc.pc
	chmod 0644 $(DESTDIR)$(PKGCONFIGDIR)/hwpmc.pc
	install -m 0644 $(LIB_HEADERS) $(DESTDIR)$(INCLUDEDIR)/
	install -d $(DESTDIR)$(INCLUDEDIR)/sys
	install -m 0644 $(LIB_SYS_HEADERS) $(DESTDIR)$(INCLUDEDIR)/sys/
	install -m 0644 $(USER_HEADERS) $(DESTDIR)$(INCLUDEDIR)/linux/
	install -m 0755 $(CPC_SO) $(DESTDIR)$(LIBDIR)/libcpc.so.1
	ln -sf libcpc.so.1 $(DESTDIR)$(LIBDIR)/libcpc.so
	install -m 0644 $(CPC_A) $(DESTDIR)$(LIBDIR)/libcpc.a
	install -m 0644 $(CPC_HEADERS) $(DESTDIR)$(INCLUDEDIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' libcpc/cpc.pc.in \
	    > $(DESTDIR)$(PKGCONFIGDIR)/cpc.pc
	chmod 0644 $(DESTDIR)$(PKGCONFIGDIR)/cpc.pc
	install -m 0755 $(TOOLS) $(DESTDIR)$(BINDIR)/
	@set -e; for s in 1 3 4 8 9; do \
		for f in man/*.$$s; do \
			[ -e "$$f" ] || continue; \
			install -d $(DESTDIR)$(MANDIR)/man$$s; \
			echo "install -m 0644 $$f $(DESTDIR)$(MANDIR)/man$$s/"; \
			install -m 0644 $$f $(DESTDIR)$(MANDIR)/man$$s/; \
		done; \
	done

.PHONY: lib tools check-unit install-user fuzz
.SECONDARY: $(TOOL_OBJS)

-include $(wildcard $(B)/obj/*/*.d $(UT)/obj/*.d $(UT)/obj/*/*.d)
