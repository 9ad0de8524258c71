#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: the module unloads and reloads 20 times, cleanly; an
# open device keeps it loaded.  Run as root with the module loaded.
. ./ksft_lib.sh

warnings() {
	dmesg | grep -cE 'WARNING:|BUG:|Oops|Call Trace|general protection|lockdep|KASAN'
}

mem_kb() {
	sync
	echo 3 > /proc/sys/vm/drop_caches 2>/dev/null
	awk '/^Slab:|^VmallocUsed:/ { s += $2 } END { print s }' /proc/meminfo
}

w0=$(warnings)
check "device present" test -c /dev/hwpmc

# an open file pins the module
exec 3</dev/hwpmc
if rmmod hwpmc 2>/dev/null; then
	fail "rmmod refused while /dev/hwpmc is open"
	modprobe hwpmc
else
	ok "rmmod refused while /dev/hwpmc is open"
fi
exec 3<&-

# warm up (the first loads grow slab caches for good), then measure
i=0
while [ $i -lt 5 ]; do i=$((i + 1)); rmmod hwpmc && modprobe hwpmc; done
m0=$(mem_kb)
good=0
i=0
while [ $i -lt 20 ]; do
	i=$((i + 1))
	rmmod hwpmc || break
	[ ! -e /dev/hwpmc ] || break
	modprobe hwpmc || break
	[ -c /dev/hwpmc ] || break
	hwpmc-control -l >/dev/null || break
	good=$i
done
m1=$(mem_kb)
if [ "$good" -eq 20 ]; then ok "20 unload/reload cycles"; else fail "20 unload/reload cycles (stopped after $good)"; fi
diag "slab+vmalloc before ${m0} kB, after ${m1} kB"
# coarse: slab and vmalloc move by a few hundred kB between identical
# rounds here, so this catches only leaks over ~50 kB per cycle (kmemleak,
# in the debug kernel, is the fine-grained check)
if [ $((m1 - m0)) -lt 1024 ]; then ok "memory stable over reloads"; else fail "memory grew by $((m1 - m0)) kB over 20 reloads"; fi
check "module live" grep -q '^hwpmc ' /proc/modules
w1=$(warnings)
if [ "$w1" -eq "$w0" ]; then ok "no kernel warning"; else fail "kernel warnings appeared"; dmesg | tail -n 40 | sed 's/^/# /'; fi
ksft_done
