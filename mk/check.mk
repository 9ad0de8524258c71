# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: tests in VMs, the demo, and installation of the module
# and the udev rule.  Included from the top-level Makefile (VERSION, KVER,
# KDIR, B, DESTDIR come from there).
#
#   make check           check-unit, then check-vm; one combined total
#   make check-vm        every guest kernel (scripts/vm/check.sh)
#   make check-debug     the selftests and the fuzzer in a debug kernel
#                        (lockdep, KASAN, kmemleak...) built once from
#                        linux-source-6.12 (scripts/vm/debug-kernel.sh)
#   make vm-shell KERNEL=6.1.0-56-amd64     interactive guest, module loaded
#   make demo            scripts/demo.sh
#   make install         install-module install-kapi install-user install-udev
#   make install-module  DKMS (when installed) or Kbuild modules_install
#   make install-kapi    pmc(9)'s header and Module.symvers for module authors
#   make install-udev    udev rule, group "hwpmc"
#
# VM knobs (environment or make variables): HWPMC_VM_KERNELS,
# HWPMC_KVER_61, HWPMC_KVER_612, HWPMC_VM_ACCEL, HWPMC_VM_TIMEOUT (see
# scripts/vm/lib.sh).

UDEVRULESDIR	?= /etc/udev/rules.d
DKMS		?= $(shell command -v dkms 2>/dev/null)
WITH_DKMS	?= $(if $(DKMS),1,0)
DKMS_SRC	:= $(DESTDIR)/usr/src/hwpmc-$(VERSION)

.PHONY: check check-vm check-debug vm-shell demo install-module install-kapi install-udev \
	uninstall-module install

check:
	@$(CURDIR)/scripts/vm/check.sh --unit

check-vm:
	@$(CURDIR)/scripts/vm/check.sh

check-debug:
	@$(CURDIR)/scripts/vm/check.sh debug

vm-shell:
	@if [ -z "$(KERNEL)" ]; then \
		echo "usage: make vm-shell KERNEL=<release>, one of:" >&2; \
		bash -c '. $(CURDIR)/scripts/vm/lib.sh; vm_kernels' >&2; exit 2; fi
	$(CURDIR)/scripts/vm/run.sh --shell $(KERNEL)

demo:
	$(CURDIR)/scripts/demo.sh

# ---- installation ----

# DKMS: copy the module's sources to /usr/src/hwpmc-VERSION, then add, build
# and install them for KVER (or, when KVER has no headers, for every kernel
# that has); DKMS rebuilds them for later kernels (AUTOINSTALL).  Without
# dkms (or WITH_DKMS=0, or with a DESTDIR): Kbuild's modules_install.
install-module:
ifeq ($(WITH_DKMS)$(DESTDIR),1)
	@if $(DKMS) status -m hwpmc -v $(VERSION) 2>/dev/null | grep -q .; then \
		echo "dkms remove hwpmc/$(VERSION) --all"; \
		$(DKMS) remove hwpmc/$(VERSION) --all; fi
	rm -rf $(DKMS_SRC)
	install -d $(DKMS_SRC)
	cp -a Kbuild dkms.conf kmod include udev $(DKMS_SRC)/
	find $(DKMS_SRC) \( -name '*.o' -o -name '*.ko' -o -name '.*.cmd' -o -name '*.mod*' \) -delete
	$(DKMS) add hwpmc/$(VERSION)
	@set -e; \
	if [ -e /lib/modules/$(KVER)/build/Makefile ]; then kernels=$(KVER); else \
		kernels=$$(for d in /lib/modules/*/build/Makefile; do [ -e "$$d" ] && \
			basename $$(dirname $$(dirname $$d)); done); \
		echo "note: no headers for $(KVER); installing for: $$kernels"; fi; \
	[ -n "$$kernels" ] || { echo "error: no kernel headers installed (apt-get install linux-headers-$(KVER))" >&2; exit 1; }; \
	for k in $$kernels; do echo "$(DKMS) install hwpmc/$(VERSION) -k $$k"; \
		$(DKMS) install hwpmc/$(VERSION) -k $$k; done
else
	@if [ -z "$(KDIR)" ]; then \
		echo "error: no kernel build tree: install linux-headers-$(KVER) or set KDIR=" >&2; exit 1; fi
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(if $(DESTDIR),INSTALL_MOD_PATH=$(DESTDIR)) \
		INSTALL_MOD_DIR=updates modules_install
endif

uninstall-module:
	-$(DKMS) remove hwpmc/$(VERSION) --all
	rm -rf /usr/src/hwpmc-$(VERSION)

# The rule names group "hwpmc", which must exist before udev reads it;
# udev/hwpmc-udev-setup.sh (also DKMS's POST_INSTALL) installs the rule,
# creates the group when missing and has a running udevd apply the rule.
# With DESTDIR (packaging), only the rule is staged: the package's own
# scripts create the group.
install-udev:
ifeq ($(DESTDIR),)
	sh udev/hwpmc-udev-setup.sh /
	@echo "note: add users to group hwpmc (usermod -aG hwpmc USER) to use /dev/hwpmc without root"
else
	install -D -m 0644 udev/70-hwpmc.rules $(DESTDIR)$(UDEVRULESDIR)/70-hwpmc.rules
endif

# pmc(9) for module authors (man/pmc.9): <linux/hwpmc_pmc.h> with the
# uapi <linux/hwpmc.h> it includes, and hwpmc's Module.symvers for the
# kernel the module is built for (KBUILD_EXTRA_SYMBOLS), from a Kbuild
# build of the same sources (DKMS cleans its build area; the same sources
# and compiler give the same symbol CRCs).  Again for each kernel:
# make install-kapi KVER=...
KAPIDIR		?= $(PREFIX)/share/hwpmc/kernel
# uname -r of KDIR's kernel: Debian's headers are linux-headers-<release>
KAPI_KREL	= $(patsubst linux-headers-%,%,$(notdir $(realpath $(KDIR))))
install-kapi:
	@if [ -z "$(KDIR)" ]; then \
		echo "error: no kernel build tree: install linux-headers-$(KVER) or set KDIR=" >&2; exit 1; fi
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules
	install -d $(DESTDIR)$(KAPIDIR)/include/linux
	install -m 0644 include/kernel/linux/hwpmc_pmc.h include/uapi/linux/hwpmc.h \
		$(DESTDIR)$(KAPIDIR)/include/linux/
	install -D -m 0644 Module.symvers $(DESTDIR)$(KAPIDIR)/$(KAPI_KREL)/Module.symvers

install: install-module install-kapi install-user install-udev
