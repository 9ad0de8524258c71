#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: /init of the test VM (busybox sh).  scripts/vm/run.sh
# puts it into the initramfs together with /etc/hwpmc-vm.conf, which sets:
#   VM_MODE     test (selftests), cmd (/hwpmc/cmd) or shell
#   VM_LOAD     how the module gets in: modprobe (DKMS-installed tree)
#   VM_REQUIRE_EVENTS  events "hwpmc-control -L" must list (arm64: cycles instructions)
#   VM_POWEROFF poweroff (default) or reboot: how the guest ends
#   VM_CSW_FALLBACK 1: also run the counting and log tests with csw_tracepoint=1
#   VM_KMEMLEAK 1: the kernel has kmemleak (debug kernel): what the boot
#               leaked is forgotten before the module loads, and at the
#               end, after rmmod, a scan must find no new leak
# systemd-udevd, when run.sh put it in, starts before the module is loaded
# and applies the rules the module's installation left in /etc/udev.
#
# Output: the console shows everything live; at the end a clean block
#   HWPMC-RESULT-BEGIN ... HWPMC-RESULT-END rc=N
# holds the TAP, and HWPMC-DMESG-BEGIN ... HWPMC-DMESG-END the whole kernel
# log, printed with the console log level lowered so that nothing
# interleaves.  The host parses those blocks (scripts/vm/run.sh).

PATH=/sbin:/bin:/usr/sbin:/usr/bin
export PATH

/bin/busybox mkdir -p /proc /sys /dev /tmp /run /usr/bin /usr/sbin /sbin
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t devtmpfs devtmpfs /dev
/bin/busybox mount -t tmpfs tmpfs /tmp
/bin/busybox mount -t tmpfs tmpfs /run
/bin/busybox mkdir -p /dev/pts /dev/shm
/bin/busybox mount -t devpts devpts /dev/pts
/bin/busybox mount -t tmpfs tmpfs /dev/shm
/bin/busybox mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
# every applet, without replacing kmod's modprobe & co. already in place
/bin/busybox --install -s 2>/dev/null

echo 1 > /proc/sys/kernel/panic_on_warn
echo 1 > /proc/sys/kernel/panic_on_oops 2>/dev/null
# perf must not throttle the (slow, emulated) overflow handlers
echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent 2>/dev/null
hostname hwpmc-vm

. /etc/hwpmc-vm.conf

# the debug kernel's guest is several times slower: timing checks relax
if [ "${VM_KMEMLEAK:-0}" = 1 ]; then HWPMC_SLOW_GUEST=1; export HWPMC_SLOW_GUEST; fi
# one x86 guest runs the counting and log tests through the fallback
# context-switch path too (selftests/csw_fallback.sh)
HWPMC_CSW_FALLBACK=${VM_CSW_FALLBACK:-0}
export HWPMC_CSW_FALLBACK

HWPMC_BIN=/opt/hwpmc/bin
LD_LIBRARY_PATH=/opt/hwpmc/lib
PATH=$HWPMC_BIN:$PATH
export HWPMC_BIN LD_LIBRARY_PATH PATH

R=/tmp/result
n=0 pass=0 fail=0 skip=0
vm_ok()   { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n vm: $*" | tee -a $R.vm; }
vm_fail() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n vm: $*" | tee -a $R.vm; }
vm_skip() { n=$((n + 1)); skip=$((skip + 1)); echo "ok $n vm: $1 # SKIP $2" | tee -a $R.vm; }
: > $R.vm
: > $R.tests

echo "hwpmc-vm: kernel $(uname -r), $(nproc) CPUs, mode $VM_MODE"

if [ "${VM_KMEMLEAK:-0}" = 1 ]; then
	if [ -w /sys/kernel/debug/kmemleak ]; then
		echo scan > /sys/kernel/debug/kmemleak
		echo clear > /sys/kernel/debug/kmemleak
	else
		vm_fail "kmemleak present (/sys/kernel/debug/kmemleak)"
	fi
fi

# 1. the module, as it was installed; udevd applies the installed rules
udevd=
if [ -x /lib/systemd/systemd-udevd ]; then
	if SYSTEMD_LOG_LEVEL=notice /lib/systemd/systemd-udevd --daemon; then
		udevd=1
	else
		vm_fail "systemd-udevd --daemon (rc=$?)"
	fi
fi
if modprobe hwpmc; then
	vm_ok "modprobe hwpmc"
else
	vm_fail "modprobe hwpmc (rc=$?)"
fi
if [ -n "$udevd" ]; then
	udevadm trigger --action=add && udevadm settle --timeout=60 &&
		vm_ok "udevadm trigger, settle" || vm_fail "udevadm trigger, settle"
fi
i=0
while [ ! -c /dev/hwpmc ] && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
if [ -c /dev/hwpmc ]; then
	vm_ok "/dev/hwpmc is a character device"
else
	vm_fail "/dev/hwpmc is a character device"
fi

# 2. the tools see the hardware the backend found
if command -v hwpmc-control >/dev/null 2>&1; then
	if hwpmc-control -L > /tmp/events 2>&1; then
		vm_ok "hwpmc-control -L"
	else
		vm_fail "hwpmc-control -L (rc=$?)"
	fi
	sed 's/^/# /' /tmp/events | head -n 80
	for ev in $VM_REQUIRE_EVENTS; do
		if grep -qE "(^|[[:space:]])$ev([[:space:]]|\$)" /tmp/events; then
			vm_ok "hwpmc-control -L lists $ev"
		else
			vm_fail "hwpmc-control -L lists $ev"
		fi
	done
	hwpmc-control -l 2>&1 | sed 's/^/# /' | head -n 40
else
	vm_fail "hwpmc-control present in the VM"
fi

case $VM_MODE in
shell)
	echo "hwpmc-vm: interactive shell; 'poweroff -f' to leave (or Ctrl-A x)"
	setsid cttyhack sh -l
	;;
cmd)
	echo "hwpmc-vm: running /hwpmc/cmd"
	sh /hwpmc/cmd 2>&1 | tee $R.tests
	;;
test)
	if [ -x /opt/hwpmc/selftests/run_tests.sh ]; then
		/opt/hwpmc/selftests/run_tests.sh 2>&1 | tee $R.tests
	else
		vm_fail "selftests present (build/selftests/run_tests.sh)"
	fi
	;;
esac

# 3. the module unloads after all that
if [ "$VM_MODE" != shell ]; then
	if ! grep -q '^hwpmc ' /proc/modules || rmmod hwpmc; then
		vm_ok "rmmod hwpmc"
	else
		vm_fail "rmmod hwpmc"
	fi
fi

# 4. debug kernel: nothing leaked (kmemleak reports objects unreferenced
# for 5 s or more, found by two scans)
if [ "${VM_KMEMLEAK:-0}" = 1 ] && [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan > /sys/kernel/debug/kmemleak
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak > /tmp/kmemleak
	if [ -s /tmp/kmemleak ]; then
		vm_fail "kmemleak: $(grep -c '^unreferenced object' /tmp/kmemleak) leak(s) after the run"
		sed 's/^/# kmemleak: /' /tmp/kmemleak | head -n 200 | tee -a $R.vm
	else
		vm_ok "kmemleak: no leak after the run"
	fi
fi

dmesg -n 1
sleep 0.2
rc=0
[ $fail -eq 0 ] || rc=1
echo "HWPMC-RESULT-BEGIN"
echo "TAP version 13"
echo "# vm checks"
cat $R.vm
echo "# tests"
cat $R.tests
echo "# vm: $pass passed, $fail failed, $skip skipped"
echo "HWPMC-RESULT-END rc=$rc"
echo "HWPMC-DMESG-BEGIN"
dmesg
echo "HWPMC-DMESG-END"
sync
# the debug kernel's ACPI cannot load its tables without PCI, so it has
# no power-off: a reboot, which QEMU's -no-reboot turns into an exit
if [ "${VM_POWEROFF:-poweroff}" = reboot ]; then reboot -f; fi
poweroff -f
