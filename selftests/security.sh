#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: unprivileged use as an administrator sets it up
# (docs/security.md): the installed udev rule applied by a real udevd,
# then hwpmc-stat (the library and the tool) run as a member of group
# hwpmc, as a user outside it, and with CAP_PERFMON, through hwpmc_runas.
# The ioctl-level rules are in hwpmc_security_test.c.
# Run as root with the module loaded.
. ./ksft_lib.sh

RULE=/etc/udev/rules.d/70-hwpmc.rules
P=/sys/module/hwpmc/parameters
out=$(mktemp)

gid=$(sed -n 's/^hwpmc:[^:]*:\([0-9]*\):.*/\1/p' /etc/group)
if [ -n "$gid" ]; then
	ok "group hwpmc exists (gid $gid)"
else
	fail "group hwpmc exists (the DKMS POST_INSTALL script creates it)"
	ksft_done
fi

node() {
	stat -c '%U %G %a' /dev/hwpmc 2>/dev/null
}

# ---- the rule, applied by systemd-udevd ----
if [ -S /run/udev/control ] && command -v udevadm >/dev/null 2>&1; then
	check "installed rule $RULE" test -f "$RULE"
	diag "/dev/hwpmc after boot (udevadm trigger, settle): $(node)"
	check "after boot: /dev/hwpmc is root hwpmc 660" test "$(node)" = "root hwpmc 660"
	# a fresh node (devtmpfs makes it root root 660), and udevd again
	if rmmod hwpmc && modprobe hwpmc; then
		udevadm settle --timeout=30
		diag "/dev/hwpmc after rmmod, modprobe, settle: $(node)"
		check "after reload: /dev/hwpmc is root hwpmc 660" test "$(node)" = "root hwpmc 660"
	else
		fail "reload the module"
	fi
	# udevd really applies the rule: without it, the node stays root's
	mv "$RULE" "$RULE.off"
	udevadm control --reload-rules
	rmmod hwpmc && modprobe hwpmc
	udevadm settle --timeout=30
	check "without the rule: /dev/hwpmc is root root 660 ($(node))" test "$(node)" = "root root 660"
	mv "$RULE.off" "$RULE"
	udevadm control --reload-rules
	udevadm trigger --subsystem-match=misc --sysname-match=hwpmc
	udevadm settle --timeout=30
	check "udevadm trigger applies the rule again" test "$(node)" = "root hwpmc 660"
else
	for t in "installed rule" "udev sets group and mode at boot" "udev sets them on reload" \
		"udev applies the rule, not something else" "udevadm trigger applies the rule"; do
		skip "$t" "no systemd-udevd running in this guest"
	done
	diag "/dev/hwpmc: $(node); setting group hwpmc, 0660 as the rule does"
	chgrp hwpmc /dev/hwpmc && chmod 0660 /dev/hwpmc
fi

member() {
	hwpmc_runas -u 1000 -g 1000 -G "$gid" "$@"
}
outsider() {
	hwpmc_runas -u 1002 -g 1002 "$@"
}
perfmon() {
	hwpmc_runas -u 1000 -g 1000 -G "$gid" -c perfmon "$@"
}

# ---- a member counts its own processes ----
member hwpmc-stat -p page-faults ./hwpmc_touch 500 2> "$out"
rc=$?
pf=$(awk '!/^#/ { print $1 }' "$out" | tail -n 1)
check "member: hwpmc-stat counts its command (exit $rc, $pf page faults)" \
	test "$rc" -eq 0 -a "${pf:-0}" -ge 500
if hwpmc-control -L 2>/dev/null | grep -qw instructions; then
	member hwpmc-stat -v -p instructions ./hwpmc_touch 10 2> "$out"
	rc=$?
	n=$(awk '!/^#/ { print $1 }' "$out" | tail -n 1)
	check "member: instructions, user mode (exit $rc, $n)" test "$rc" -eq 0 -a "${n:-0}" -gt 0
	check "member: hwpmc-stat says it counts user mode only" \
		grep -q 'counting user mode only' "$out"
	perfmon hwpmc-stat -v -p instructions ./hwpmc_touch 10 2> "$out"
	rc=$?
	n=$(awk '!/^#/ { print $1 }' "$out" | tail -n 1)
	if [ "$rc" -eq 0 ] && [ "${n:-0}" -gt 0 ] && ! grep -q 'user mode only' "$out"; then
		ok "CAP_PERFMON: instructions in both modes ($n)"
	else
		fail "CAP_PERFMON: instructions in both modes (exit $rc, ${n:-no count})"
	fi
	# one hardware event more than unprivileged_counters (default 2)
	lim=$(cat /sys/module/hwpmc/parameters/unprivileged_counters)
	echo 2 > /sys/module/hwpmc/parameters/unprivileged_counters
	member hwpmc-stat -p instructions -p cycles -p r8 ./hwpmc_touch 10 2> "$out"
	rc=$?
	if [ "$rc" -ne 0 ] && grep -q "cannot start 'r8'.*busy" "$out" &&
	   grep -q 'unprivileged_counters' "$out"; then
		ok "member: a third hardware event is refused, and hwpmc-stat says why"
	else
		fail "member: a third hardware event is refused, and hwpmc-stat says why (exit $rc)"
		sed 's/^/# /' "$out"
	fi
	perfmon hwpmc-stat -p instructions -p cycles -p r8 ./hwpmc_touch 10 2> "$out"
	rc=$?
	if [ "$rc" -eq 0 ] && [ "$(awk '!/^#/ { for (i = 1; i <= NF; i++) n += $i > 0 } END { print n + 0 }' "$out")" -ge 3 ]; then
		ok "CAP_PERFMON: three hardware events count"
	else
		fail "CAP_PERFMON: three hardware events count (exit $rc)"
		sed 's/^/# /' "$out"
	fi
	echo "$lim" > /sys/module/hwpmc/parameters/unprivileged_counters
else
	skip "member: instructions, user mode" "no hardware PMU"
	skip "member: hwpmc-stat says it counts user mode only" "no hardware PMU"
	skip "CAP_PERFMON: instructions in both modes" "no hardware PMU"
	skip "member: a third hardware event is refused" "no hardware PMU"
	skip "CAP_PERFMON: three hardware events count" "no hardware PMU"
fi
# -t: a process of its own, not someone else's
# (it runs until killed: the refusal must not race with its exit)
./hwpmc_spin 600 &
rootpid=$!
expect_exit "member: -t of root's process refused" 1 "cannot attach to pid $rootpid: Operation not permitted" \
	member hwpmc-stat -p task-clock -t "$rootpid"
kill "$rootpid"
wait "$rootpid" 2>/dev/null

# ---- system scope ----
expect_exit "member: -s refused, and why" 1 "system-scope PMCs need CAP_PERFMON" \
	member hwpmc-stat -c 0 -s cpu-clock sleep 0.1
check "CAP_PERFMON: -s counts" sh -c "hwpmc_runas -u 1000 -g 1000 -G $gid -c perfmon \
	hwpmc-stat -c 0 -s cpu-clock sleep 0.1 >/dev/null 2>&1"
echo 1 > $P/unprivileged_syspmcs
check "unprivileged_syspmcs=1: member -s counts" sh -c "hwpmc_runas -u 1000 -g 1000 -G $gid \
	hwpmc-stat -c 0 -s cpu-clock sleep 0.1 >/dev/null 2>&1"
echo 0 > $P/unprivileged_syspmcs
expect_exit "unprivileged_syspmcs=0 again: member -s refused" 1 "system-scope PMCs need CAP_PERFMON" \
	member hwpmc-stat -c 0 -s cpu-clock sleep 0.1

# ---- outside the group: EACCES from pmc_init, and how to get in ----
expect_exit "outsider: pmc_init says how to get access" 1 \
	"add yourself to group 'hwpmc' (usermod -aG hwpmc \$USER)" \
	outsider hwpmc-stat -p task-clock true
outsider hwpmc-stat -p task-clock true > "$out" 2>&1
check "outsider: the message names EACCES's cause" grep -q 'permission denied on /dev/hwpmc' "$out"
diag "$(cat "$out")"

rm -f "$out"
ksft_done
