#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: load-time tunables out of range get hwpmc(4)'s
# diagnostics and their defaults; run-time tunables refuse bad values.
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

reload
check "reload with defaults" param_is softevents 16
ksft_done
