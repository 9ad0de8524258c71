# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: top-level build.
#
#   make                 module, library, tools, selftests
#   make check           unit tests, then the VM tests (README)
#   make install         install everything (DESTDIR, PREFIX honoured)
#
# The kernel module is built by Kbuild (see ./Kbuild) against KDIR, which
# defaults to the running kernel's build tree; when that kernel has no
# headers installed, the newest installed Debian headers are used.

VERSION		:= 0.1.0
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

.PHONY: all module lib tools selftests check check-unit check-vm clean install \
	install-module install-user sparse checkpatch

all: module lib tools selftests

module:
	@if [ -z "$(KDIR)" ]; then \
		echo "error: no kernel build tree: install linux-headers-$(KVER) or set KDIR=" >&2; exit 1; fi
	$(if $(KDIR_NOTE),@echo "$(KDIR_NOTE)")
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

selftests:
	$(MAKE) -C selftests B=$(B)

sparse:
	$(MAKE) -C $(KDIR) M=$(CURDIR) C=2 CF="-D__CHECK_ENDIAN__" modules

include mk/user.mk
include mk/check.mk

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	rm -rf $(B)
