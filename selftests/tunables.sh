#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: load-time tunables out of range get hwpmc(4)'s
# diagnostics and their defaults; run-time tunables refuse bad values;
# values that are no number at all make the load fail, with the kernel's
# message; rmmod is refused while PMCs are in use, and once their owner
# is killed the module unloads under a target that keeps running.
. ./ksft_lib.sh

P=/sys/module/hwpmc/parameters

param_is() {
	[ "$(cat $P/$1)" = "$2" ]
}

logged() {
	dmesg | tail -n 60 | grep -qF "$1"
}

reload() {
	rmmod hwpmc 2>/dev/null
	modprobe hwpmc "$@"
}

# a process PMC holds its row on every CPU: disposition THREAD (only
# system PMCs show their owner's pid); wait up to 10 s for one
wait_thread_row() {
	_i=0
	while [ $_i -lt 100 ] && ! hwpmc-control -l 2>/dev/null | grep -q " THREAD"; do
		sleep 0.1; _i=$((_i + 1))
	done
	hwpmc-control -l 2>/dev/null | grep -q " THREAD"
}

# the device works (GETCPUINFO, GETPMCINFO on every CPU)
works() {
	hwpmc-control -l > /dev/null 2>&1
}

# bad NAME=VALUE EXPECTED DIAGNOSTIC [PARAM...]: loads (with the other
# PARAMs), says DIAGNOSTIC, uses EXPECTED
bad() {
	_nv=$1 _want=$2 _msg=$3
	shift 3
	if ! reload "$_nv" "$@"; then
		fail "$_nv: load (corrected, not refused)"
		reload
		return
	fi
	if param_is "${_nv%%=*}" "$_want" && logged "$_msg" && works; then
		ok "$_nv -> $_want, \"$_msg\""
	else
		fail "$_nv -> $_want, \"$_msg\" (read $(cat $P/${_nv%%=*}); log: $(dmesg | tail -n 3 | tr '\n' '|'))"
	fi
}

# refused NAME=VALUE: the load fails, the kernel says why, no module left
refused() {
	rmmod hwpmc 2>/dev/null
	if modprobe hwpmc "$1" 2>/dev/null; then
		fail "$1: load refused (it loaded)"
	elif grep -q '^hwpmc ' /proc/modules; then
		fail "$1: load refused (a module is left)"
	elif ! dmesg | tail -n 5 | grep -q "invalid for parameter .${1%%=*}."; then
		fail "$1: load refused, with the kernel's 'invalid for parameter' message"
	else
		ok "$1: load refused ($(dmesg | tail -n 1 | sed 's/^\[[^]]*\] //'))"
	fi
}

if ! reload hashsize=-1 nsamples=1000 callchaindepth=9999 logbuffersize=0 \
	nbuffers_pcpu=-5 mincount=0 softevents=500; then
	fail "load with bad tunables"
	reload
	ksft_done
fi
ok "load with bad tunables"
check "hashsize=-1 -> 1024" param_is hashsize 1024
check "hashsize diagnostic" logged "hwpmc: tunable hashsize=-1 must be greater than zero."
check "nsamples=1000 -> 512" param_is nsamples 512
check "nsamples diagnostic" logged "hwpmc: tunable nsamples=1000 is not a power of two"
check "callchaindepth=9999 -> 512" param_is callchaindepth 512
check "logbuffersize=0 -> 256" param_is logbuffersize 256
check "logbuffersize diagnostic" logged "hwpmc: tunable logbuffersize=0 must be greater than zero."
check "nbuffers_pcpu=-5 -> 32" param_is nbuffers_pcpu 32
check "nbuffers diagnostic" logged "hwpmc: tunable nlogbuffers=-5 must be greater than zero."
check "mincount=0 -> 1000" param_is mincount 1000
check "softevents=500 -> 16" param_is softevents 16

reload nsamples=70000
check "nsamples=70000 -> 256" param_is nsamples 256
check "nsamples diagnostic" logged "hwpmc: tunable nsamples=70000 out of range."

reload logbuffersize=16384 nbuffers_pcpu=32
check "32 MB per CPU cap -> defaults" param_is logbuffersize 256
check "32 MB per CPU cap -> defaults (nbuffers)" param_is nbuffers_pcpu 32

reload softevents=4 nsamples=64
check "softevents=4 accepted" param_is softevents 4
check "nsamples=64 accepted" param_is nsamples 64
rows=$(hwpmc-control -l 2>/dev/null | grep -c 'SOFT[0-9]')
cpus=$(hwpmc-control -l 2>/dev/null | grep -c '^#CPU')
if [ "$cpus" -gt 0 ] && [ "$rows" -eq $((4 * cpus)) ]; then
	ok "softevents=4 gives 4 SOFT rows per CPU"
else
	fail "softevents=4 gives 4 SOFT rows per CPU (saw $rows rows, $cpus CPUs)"
fi

# run-time tunables
if echo 0 > $P/mincount 2>/dev/null; then fail "mincount=0 refused at run time"; else ok "mincount=0 refused at run time"; fi
if echo -7 > $P/mincount 2>/dev/null; then fail "mincount=-7 refused at run time"; else ok "mincount=-7 refused at run time"; fi
check "mincount=5000 accepted" sh -c "echo 5000 > $P/mincount"
check "mincount reads back 5000" param_is mincount 5000
check "unprivileged_syspmcs writable" sh -c "echo 1 > $P/unprivileged_syspmcs && echo 0 > $P/unprivileged_syspmcs"
if echo 5 > $P/hashsize 2>/dev/null; then fail "hashsize read-only"; else ok "hashsize read-only"; fi
check "unprivileged_proc_debug defaults to Y" param_is unprivileged_proc_debug Y
check "unprivileged_kernel defaults to N" param_is unprivileged_kernel N

# every load-time tunable: negative, zero, huge, not a power of two
bad hashsize=0 1024 "hwpmc: tunable hashsize=0 must be greater than zero."
bad hashsize=-2147483648 1024 "hwpmc: tunable hashsize=-2147483648 must be greater than zero."
if reload hashsize=1000 && works; then ok "hashsize=1000 (rounded up to 1024 rows)"; else fail "hashsize=1000"; fi
bad hashsize=2147483647 1048576 "hwpmc: tunable hashsize=2147483647 too large; using 1048576."
bad nsamples=0 256 "hwpmc: tunable nsamples=0 out of range."
bad nsamples=-1 256 "hwpmc: tunable nsamples=-1 out of range."
bad nsamples=65535 32768 "hwpmc: tunable nsamples=65535 is not a power of two; using 32768."
bad nsamples=2147483647 256 "hwpmc: tunable nsamples=2147483647 out of range."
bad callchaindepth=0 128 "hwpmc: tunable callchaindepth=0 must be greater than zero."
bad callchaindepth=-3 128 "hwpmc: tunable callchaindepth=-3 must be greater than zero."
bad callchaindepth=513 512 "hwpmc: tunable callchaindepth=513 too large; using 512."
bad callchaindepth=2147483647 512 "hwpmc: tunable callchaindepth=2147483647 too large; using 512."
bad logbuffersize=-1 256 "hwpmc: tunable logbuffersize=-1 must be greater than zero."
bad logbuffersize=2147483647 16384 "hwpmc: tunable logbuffersize=2147483647 too large; using 16384." nbuffers_pcpu=1
bad nbuffers_pcpu=0 32 "hwpmc: tunable nlogbuffers=0 must be greater than zero."
bad nbuffers_pcpu=2147483647 32 "exceed 32768 KB per CPU; using the defaults."
bad mincount=-1 1000 "hwpmc: tunable mincount=-1 must be greater than zero."
if reload mincount=2147483647 && param_is mincount 2147483647 && works; then ok "mincount=2147483647 accepted"; else fail "mincount=2147483647 accepted"; fi
bad maxstackuser=-8 16384 "hwpmc: tunable maxstackuser=-8 out of range."
bad maxstackuser=32776 16384 "hwpmc: tunable maxstackuser=32776 out of range."
if reload maxstackuser=1001 && param_is maxstackuser 1000 && works; then ok "maxstackuser=1001 -> 1000"; else fail "maxstackuser=1001 -> 1000"; fi
if reload maxstackuser=0 && param_is maxstackuser 0 && works; then ok "maxstackuser=0: no stack ring"; else fail "maxstackuser=0"; fi
bad softevents=0 16 "hwpmc: tunable softevents=0 out of range."
bad softevents=-1 16 "hwpmc: tunable softevents=-1 out of range."
bad softevents=129 16 "hwpmc: tunable softevents=129 out of range."
if reload softevents=128 && param_is softevents 128 && works; then ok "softevents=128 accepted"; else fail "softevents=128 accepted"; fi
if reload logbuffersize=1 nbuffers_pcpu=1 nsamples=1 callchaindepth=1 && works; then
	ok "the smallest values load"
else
	fail "the smallest values load"
fi

# a sample and its stack larger than a 1 KB log buffer: the sample
# without its stack; no USERSTACK of more than the buffer holds
# (hwpmc-stat with libdw only: not the arm64 build)
if reload logbuffersize=1 && works; then
	_l=$(mktemp)
	if hwpmc-stat -P cpu-clock --call-graph dwarf,4096 -O "$_l" ./hwpmc_nofp 0.3 > /dev/null 2>&1; then
		_d=$(hwpmc-stat -R "$_l" --dump 2>&1)
		# those whose copy was cut short (the stack's top) fit: they stay
		if printf '%s\n' "$_d" | grep -q ' callchain ' &&
		   printf '%s\n' "$_d" | awk '$2 == "userstack" && $11 + 168 > 1024 { exit 1 }'; then
			ok "logbuffersize=1: samples logged without the stacks that do not fit ($(printf '%s\n' "$_d" | grep -c ' userstack ') short ones kept)"
		else
			fail "logbuffersize=1: $(printf '%s\n' "$_d" | grep -c ' callchain ') samples, $(printf '%s\n' "$_d" | grep -c ' userstack ') stacks"
		fi
	else
		skip "logbuffersize=1 with --call-graph dwarf" "hwpmc-stat refused it (no libdw?)"
	fi
	rm -f "$_l"
else
	fail "logbuffersize=1 loads"
fi

# stacks larger than a 1 KB log buffer: lost and counted (pm_stacks_dropped)
if reload logbuffersize=1 && works; then
	if ./hwpmc_log_test -t user_stacks_lost_are_counted > /tmp/ustk.out 2>&1; then
		ok "logbuffersize=1: lost user stacks are counted"
	else
		fail "logbuffersize=1: lost user stacks are counted: $(grep -E '_test.c:[0-9]+:|SKIP' /tmp/ustk.out | head -n 3 | tr '\n' '|')"
	fi
else
	fail "logbuffersize=1 loads"
fi

# no number, or out of int's range: the kernel refuses the load
refused hashsize=99999999999
refused nsamples=abc
refused callchaindepth=
refused mincount=0x
refused unprivileged_syspmcs=2
refused unprivileged_kernel=maybe
rmmod hwpmc 2>/dev/null
if modprobe hwpmc nosuchparam=1 && works; then ok "an unknown parameter is ignored"; else fail "an unknown parameter is ignored"; fi
check "unknown parameter reported" logged "unknown parameter 'nosuchparam' ignored"

# rmmod while PMCs are in use: refused; the owner killed, it unloads
# while the target runs on (no notifier or hook left behind)
reload
./hwpmc_spin 60 & tgt=$!
# attach to hwpmc_spin, not to the shell that is about to exec it
i=0
while [ $i -lt 100 ] && [ "$(cat /proc/$tgt/comm 2>/dev/null)" != hwpmc_spin ]; do
	sleep 0.1; i=$((i + 1))
done
hwpmc-stat -p task-clock -t $tgt -w 1 > /dev/null 2>&1 & own=$!
if wait_thread_row; then
	ok "a process PMC in use (owner $own, target $tgt)"
else
	fail "a process PMC in use (owner $own, target $tgt)"
fi
if rmmod hwpmc 2>/dev/null; then
	fail "rmmod refused while a PMC is in use"
	modprobe hwpmc
else
	ok "rmmod refused while a PMC is in use"
fi
kill -9 $own
wait $own 2>/dev/null
i=0
while [ $i -lt 50 ] && ! rmmod hwpmc 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
if ! grep -q '^hwpmc ' /proc/modules; then
	ok "rmmod after the owner was killed, target still running"
else
	fail "rmmod after the owner was killed (5 s)"
fi
sleep 1	# the target context-switches without the module
if kill -0 $tgt 2>/dev/null; then ok "the target outlives the module"; else fail "the target outlives the module"; fi
kill $tgt 2>/dev/null
wait $tgt 2>/dev/null

# a system-scope PMC holds the module too
modprobe hwpmc
hwpmc-stat -s cpu-clock -w 1 > /dev/null 2>&1 & own=$!
i=0
while [ $i -lt 100 ] && ! hwpmc-control -l 2>/dev/null | grep -q "(pid $own)"; do
	sleep 0.1; i=$((i + 1))
done
if rmmod hwpmc 2>/dev/null; then
	fail "rmmod refused while a system PMC is in use"
	modprobe hwpmc
else
	ok "rmmod refused while a system PMC is in use"
fi
kill -9 $own
wait $own 2>/dev/null
i=0
while [ $i -lt 50 ] && ! rmmod hwpmc 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
check "rmmod after the system PMC's owner was killed" sh -c "! grep -q '^hwpmc ' /proc/modules"

# a target asleep in the kernel takes its preempt notifier (a task work)
# only when it next returns to user mode: until then the module stays,
# and rmmod answers EBUSY at once, without waiting for it
modprobe hwpmc
if [ "$(cat $P/csw_tracepoint)" = Y ]; then
	skip "rmmod with a notifier pending" "csw_tracepoint=1 has no notifiers"
else
	sleep 600 & tgt=$!
	i=0
	while [ $i -lt 100 ] && [ "$(cat /proc/$tgt/stat 2>/dev/null | cut -d' ' -f3)" != S ]; do
		sleep 0.1; i=$((i + 1))
	done
	hwpmc-stat -p task-clock -t $tgt -w 1 > /dev/null 2>&1 & own=$!
	check "a process PMC on the sleeper" wait_thread_row
	kill -9 $own
	wait $own 2>/dev/null
	sleep 0.5	# the owner's file is closed, its PMC released
	t0=$(date +%s)
	if timeout 10 rmmod hwpmc 2>/dev/null; then
		fail "rmmod answers EBUSY while a sleeping former target holds a task work"
		modprobe hwpmc
	else
		ok "rmmod answers EBUSY while a sleeping former target holds a task work"
	fi
	check "rmmod did not wait for the sleeper" [ $(($(date +%s) - t0)) -lt 5 ]
	check "csw_pinned counts the sleeper's task work" [ "$(cat $P/csw_pinned)" -ge 1 ]
	kill $tgt
	wait $tgt 2>/dev/null
	i=0
	while [ $i -lt 50 ] && ! rmmod hwpmc 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
	check "rmmod once the sleeper exited" sh -c "! grep -q '^hwpmc ' /proc/modules"
fi

reload
check "reload with defaults" param_is softevents 16
ksft_done
