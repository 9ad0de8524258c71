# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: top-level build.
#
#   make                 module, library, tools, selftests
#   make check           unit tests, then the VM tests (README)
#   make bench-vm        the benchmarks against perf in a guest (mk/bench.mk)
#   make install         install everything (DESTDIR, PREFIX honoured)
#
# The kernel module is built by Kbuild (see ./Kbuild) against KDIR, which
# defaults to the running kernel's build tree; when that kernel has no
# headers installed, the newest installed Debian headers are used.

# The package version, from include/hwpmc_version.h (as dkms.conf reads it).
VERSION		:= $(shell sed -n 's/^\#define HWPMC_VERSION_STRING[[:space:]]*"\(.*\)"$$/\1/p' \
		     $(dir $(lastword $(MAKEFILE_LIST)))include/hwpmc_version.h)
ifeq ($(VERSION),)
  $(error no HWPMC_VERSION_STRING in include/hwpmc_version.h)
endif
ARCH_DEB	:= $(shell dpkg --print-architecture 2>/dev/null || uname -m)
KVER		?= $(shell uname -r)
ifeq ($(origin KDIR),undefined)
  ifneq ($(wildcard /lib/modules/$(KVER)/build/Makefile),)
    KDIR := /lib/modules/$(KVER)/build
  else
    KDIR := $(lastword $(sort $(wildcard /usr/src/linux-headers-*-$(ARCH_DEB))))
    KDIR_NOTE := note: no headers for the running kernel $(KVER); building the module against $(KDIR)
  endif
endif

B		?= $(CURDIR)/build
PREFIX		?= /usr/local
DESTDIR		?=

export B VERSION

.PHONY: all module lib tools selftests bench check check-unit check-vm check-debug clean install \
	install-module install-user sparse checkpatch lint

all: module lib tools selftests bench

module:
	@if [ -z "$(KDIR)" ]; then \
		echo "error: no kernel build tree: install linux-headers-$(KVER) or set KDIR=" >&2; exit 1; fi
	$(if $(KDIR_NOTE),@echo "$(KDIR_NOTE)")
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

selftests: lib
	$(MAKE) -C selftests B=$(B)

sparse:
	$(MAKE) -C $(KDIR) M=$(CURDIR) C=2 CF="-D__CHECK_ENDIAN__" modules

# checkpatch.pl ships in Debian's linux-source tarball, not in the headers.
KSRC_TARBALL	?= $(lastword $(sort $(wildcard /usr/src/linux-source-*.tar.xz)))
CHECKPATCH	:= $(B)/ksrc/scripts/checkpatch.pl
KERNEL_SOURCES	:= $(wildcard kmod/*.c kmod/*.h) include/hwpmc_events.h \
		   include/hwpmc_allocate.h include/hwpmc_version.h \
		   $(wildcard include/uapi/linux/*.h) $(wildcard include/kernel/linux/*.h) \
		   $(wildcard samples/*/*.c)

$(CHECKPATCH):
	@test -n "$(KSRC_TARBALL)" || { echo "error: apt-get install linux-source-6.12" >&2; exit 1; }
	@mkdir -p $(B)/ksrc
	tar -xJf $(KSRC_TARBALL) -C $(B)/ksrc --strip-components=1 --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'

# The uapi header's __HWPMC_CAPS() is an X-macro list (FreeBSD's
# __PMC_CAPS() pattern: one list for the module's and the library's
# names), which checkpatch's COMPLEX_MACRO refuses as it does the kernel's
# own X-macro lists; that one check is off for that one file.
CHECKPATCH_XMACRO := include/uapi/linux/hwpmc.h

checkpatch: $(CHECKPATCH)
	$(CHECKPATCH) --no-tree --terse --show-types -f \
		$(filter-out $(CHECKPATCH_XMACRO),$(KERNEL_SOURCES))
	$(CHECKPATCH) --no-tree --terse --show-types --ignore COMPLEX_MACRO -f \
		$(CHECKPATCH_XMACRO)

# The module against every installed Debian kernel's headers, warnings
# as errors (KCFLAGS=-Werror on the command line, never in Kbuild), with
# sparse; then checkpatch.
LINT_KDIRS	?= $(sort $(wildcard /usr/src/linux-headers-*-$(ARCH_DEB)))
lint: checkpatch
	@scripts/kmod_layers.sh -q
	@set -e; for k in $(LINT_KDIRS); do echo "  SPARSE  $$k"; \
		$(MAKE) -s -C $$k M=$(CURDIR) C=2 CF="-D__CHECK_ENDIAN__" KCFLAGS=-Werror modules 2>&1 | \
		grep -v 'Skipping BTF' | tee $(B)/sparse.log; \
		! grep -q . $(B)/sparse.log; done

include mk/user.mk
include mk/check.mk
include mk/bench.mk

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	rm -rf $(B)
