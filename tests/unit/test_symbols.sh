#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc-stat's symbols (tools/pmcstat_sym.c) of real builds: a C++
# program and a shared library built here with -O2 -g, the library
# stripped and its debug information split into a separate file, found by
# build-id under --debug-dir (or $HWPMC_DEBUG_DIR) and by .gnu_debuglink
# beside the library, and from a debuginfod server (python3's http.server
# on the loopback); C++ names demangled (raw with --no-demangle);
# source lines (--lines; --dump --lines: each frame's, with the functions
# inlined there); JIT code of /tmp/perf-PID.map (a Rust v0 name among
# it); the vDSO; a kernel module's symbols.  The log is written by mklog
# -x at addresses taken from nm(1) and readelf(1).
#   test_symbols.sh <hwpmc-stat> <mklog> <source dir of sym_prog.cc, sym_lib.c>
# Environment: CC, CXX (default cc, c++).
set -u
STAT=$1; MKLOG=$2; SRC=$3
CC=${CC:-cc}; CXX=${CXX:-c++}
T=$(mktemp -d "${TMPDIR:-/tmp}/hwpmc-sym.XXXXXX")
# the log's process: the pid of this shell, whose perf map we write
pid=$$
JITMAP=/tmp/perf-$pid.map
trap '[ -n "${KEEP:-}" ] || rm -rf "$T" "$JITMAP"' EXIT
# no debuginfod: only the files made here
unset DEBUGINFOD_URLS HWPMC_DEBUG_DIR
. "$(dirname "$0")/tap.sh"
run() {
	"$STAT" "$@" > "$T/out" 2> "$T/err"
	rc=$?
	if [ "$rc" != 0 ]; then
		echo "# hwpmc-stat $*: status $rc"
		sed 's/^/# err: /' "$T/err" | head -20
		return 1
	fi
	! grep -q -e 'Sanitizer' -e 'runtime error' "$T/err" || {
		sed 's/^/# err: /' "$T/err" | head -40; return 1; }
}
# addr FILE SYMBOL: its value in FILE's .symtab (hex, no 0x)
addr() { nm --defined-only "$1" | awk -v s="$2" '$3 == s { print $1; exit }'; }
size() { wc -c < "$1" | tr -d ' '; }

for tool in nm objcopy strip readelf; do
	command -v $tool > /dev/null 2>&1 && continue
	echo "ok 1 - symbol tests # SKIP no $tool"
	echo "1..1"
	exit 0
done
if ! command -v "$CXX" > /dev/null 2>&1; then
	echo "ok 1 - symbol tests # SKIP no C++ compiler ($CXX)"
	echo "1..1"
	exit 0
fi

# the program and the library; the library's debug information split off
mkdir -p "$T/bin" "$T/lib" "$T/dl" "$T/debug"
"$CXX" -O2 -g -fPIE -pie -o "$T/bin/sym_prog" "$SRC/sym_prog.cc" &&
	"$CC" -O2 -g -fPIC -shared -o "$T/libsym.so" "$SRC/sym_lib.c" &&
	objcopy --only-keep-debug "$T/libsym.so" "$T/libsym.debug" &&
	strip --strip-unneeded -o "$T/lib/libsym.so" "$T/libsym.so" &&
	objcopy --add-gnu-debuglink="$T/libsym.debug" "$T/lib/libsym.so"
ok $? "built sym_prog (C++) and libsym.so, split its debug information"
bid=$(readelf -n "$T/libsym.so" | sed -n 's/.*Build ID: *//p')
# by build-id: DIR/.build-id/xx/rest.debug
mkdir -p "$T/debug/.build-id/$(echo "$bid" | cut -c1-2)"
cp "$T/libsym.debug" "$T/debug/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug"
# by .gnu_debuglink: a copy of the stripped library with the debug file beside it
cp "$T/lib/libsym.so" "$T/dl/libsymdl.so" && cp "$T/libsym.debug" "$T/dl/"
[ -n "$bid" ] && hasnt_symtab=$(nm "$T/lib/libsym.so" 2>&1 | grep -c sym_hidden_work)
[ -n "$bid" ] && [ "$hasnt_symtab" = 0 ]
ok $? "the stripped library has a build-id ($bid) and no sym_hidden_work"

bar=$(addr "$T/bin/sym_prog" _ZN2ns3Foo3barEi)
main=$(addr "$T/bin/sym_prog" main)
hid=$(addr "$T/libsym.so" sym_hidden_work)
ent=$(addr "$T/libsym.so" sym_lib_entry)
P=555500000000 L=7f0000000000 D=7f1000000000 V=7fff00000000 J=7e0000000000
h() { printf '%x' $(($1)); }
{
	echo "exec $T/bin/sym_prog"
	echo "map $P $(h "0x$P + $(size "$T/bin/sym_prog")") 0 $T/bin/sym_prog"
	echo "map $L $(h "0x$L + $(size "$T/lib/libsym.so")") 0 $T/lib/libsym.so"
	echo "map $D $(h "0x$D + $(size "$T/dl/libsymdl.so")") 0 $T/dl/libsymdl.so"
	for i in 1 2 3 4 5 6 7; do echo "sample $(h "0x$P + 0x$bar + 2") $(h "0x$P + 0x$main + 4")"; done
	for i in 1 2 3 4 5; do echo "sample $(h "0x$L + 0x$hid + 2") $(h "0x$L + 0x$ent + 4")"; done
	for i in 1 2 3 4; do echo "sample $(h "0x$D + 0x$hid + 2")"; done
	# the JIT's code: anonymous memory (the module's MAP_IN "//anon"),
	# over a file mapping it replaced
	echo "map $J $(h "0x$J + 0x1000") 0 $T/bin/sym_prog"
	echo "map $J $(h "0x$J + 0x1000") 0 //anon"
	for i in 1 2 3; do echo "sample $(h "0x$J + 0x10")"; done
	echo "sample $(h "0x$J + 0x110")"
} > "$T/script"
# the vDSO of this system, when mklog can copy its own
vdso=
if "$MKLOG" -V "$T/vdso.so" 2> /dev/null; then
	vfn=$(readelf --dyn-syms -W "$T/vdso.so" |
	      awk '$4 == "FUNC" && $8 ~ /clock_gettime/ { print $2; exit }')
	if [ -n "$vfn" ]; then
		vdso=1
		echo "map $V $(h "0x$V + $(size "$T/vdso.so")") 0 [vdso]" >> "$T/script"
		for i in 1 2; do echo "sample $(h "0x$V + 0x$vfn + 1")" >> "$T/script"; done
	fi
fi
# a kernel module's function (there are none where kallsyms hides addresses)
kmod=$(awk '$2 ~ /^[tT]$/ && $4 ~ /^\[/ && $1 !~ /^0+$/ { print $1, $4; exit }' /proc/kallsyms 2>/dev/null)
if [ -n "$kmod" ]; then
	echo "sample ${kmod% *}" >> "$T/script"	# (sh arithmetic is signed)
fi
printf '%x 100 jit_compiled_fn\n%x 40 _RNvCs1234_7mycrate3foo\n' \
	$((0x$J)) $((0x$J + 0x100)) > "$JITMAP"
"$MKLOG" -x "$T/log" "$pid" < "$T/script"
ok $? "mklog -x wrote the log"

# separate debug file by build-id, under --debug-dir
run -R "$T/log" --debug-dir "$T/debug" && cp "$T/out" "$T/flat" &&
	has flat '^ +[0-9.]+ +[0-9.]+ +5 +sym_hidden_work +libsym\.so$'
ok $? "stripped library: its static function named from the debug file found by build-id"
HWPMC_DEBUG_DIR=$T/debug run -R "$T/log" && cp "$T/out" "$T/flatenv" &&
	has flatenv '^ +[0-9.]+ +[0-9.]+ +5 +sym_hidden_work +libsym\.so$'
ok $? "\$HWPMC_DEBUG_DIR: the same"
# by .gnu_debuglink, beside the library; not found without
has flat '^ +[0-9.]+ +[0-9.]+ +4 +sym_hidden_work +libsymdl\.so$'
ok $? "stripped library: the debug file found by .gnu_debuglink beside it"
run -R "$T/log" && cp "$T/out" "$T/nodebug" &&
	has nodebug '^ +[0-9.]+ +[0-9.]+ +5 +\[unknown\] +libsym\.so$'
ok $? "without --debug-dir: the function of the stripped library is unknown"
# debuginfod (DEBUGINFOD_URLS): a server on the loopback, python3's
# http.server, serving the debug file as /buildid/ID/debuginfo
if command -v python3 > /dev/null 2>&1 && command -v timeout > /dev/null 2>&1 &&
   { ldconfig -p 2>/dev/null | grep -q 'libdebuginfod\.so\.1'; }; then
	mkdir -p "$T/srv/buildid/$bid" && cp "$T/libsym.debug" "$T/srv/buildid/$bid/debuginfo"
	(cd "$T/srv" && exec timeout 120 python3 -u -m http.server 0 --bind 127.0.0.1) \
		> "$T/srv.log" 2>&1 &
	srv=$!
	port=
	for i in 1 2 3 4 5 6 7 8 9 10; do
		port=$(sed -n 's/.* port \([0-9][0-9]*\).*/\1/p' "$T/srv.log" | head -1)
		[ -n "$port" ] && break
		sleep 0.5
	done
	if [ -n "$port" ]; then
		DEBUGINFOD_URLS=http://127.0.0.1:$port DEBUGINFOD_CACHE_PATH=$T/dcache \
			DEBUGINFOD_TIMEOUT=20 run -R "$T/log" && cp "$T/out" "$T/dflat" &&
			has dflat '^ +[0-9.]+ +[0-9.]+ +5 +sym_hidden_work +libsym\.so$' &&
			has srv.log "GET /buildid/$bid/debuginfo"
		ok $? "DEBUGINFOD_URLS: the debug file fetched from a debuginfod server by build-id"
	else
		skip "DEBUGINFOD_URLS: a debuginfod server" "python3's http.server did not start"
	fi
	kill "$srv" 2> /dev/null
	wait "$srv" 2> /dev/null
else
	skip "DEBUGINFOD_URLS: a debuginfod server" "no python3, timeout or libdebuginfod"
fi
# demangling
has flat '^ +[0-9.]+ +[0-9.]+ +7 +ns::Foo::bar\(int\) +sym_prog$'
ok $? "C++: ns::Foo::bar(int), demangled"
run -R "$T/log" --debug-dir "$T/debug" --no-demangle && cp "$T/out" "$T/raw" &&
	has raw '^ +[0-9.]+ +[0-9.]+ +7 +_ZN2ns3Foo3barEi +sym_prog$' &&
	has raw ' _RNvCs1234_7mycrate3foo +\[jit\]$' && hasnt raw 'ns::Foo' &&
	hasnt flat '_ZN2ns3Foo3barEi'
ok $? "--no-demangle: the raw names"
# JIT code
has flat '^ +[0-9.]+ +[0-9.]+ +3 +jit_compiled_fn +\[jit\]$'
ok $? "/tmp/perf-PID.map: JIT code named"
has flat '^ +[0-9.]+ +[0-9.]+ +1 +mycrate::foo +\[jit\]$'
ok $? "Rust (v0): mycrate::foo, demangled"
# source lines, from the DWARF of the program and of the debug file: where
# the functions are declared
lbar=$(grep -n 'int Foo::bar' "$SRC/sym_prog.cc" | cut -d: -f1)
lhid=$(grep -n 'sym_hidden_work(unsigned long n)$' "$SRC/sym_lib.c" | cut -d: -f1)
run -R "$T/log" --debug-dir "$T/debug" --lines && cp "$T/out" "$T/lines" &&
	has lines " 7 +ns::Foo::bar\\(int\\) \\(sym_prog\\.cc:$lbar\\) +sym_prog$" &&
	has lines " 5 +sym_hidden_work \\(sym_lib\\.c:$lhid\\) +libsym\\.so$"
ok $? "--lines: file:line of the functions (sym_prog.cc:$lbar, sym_lib.c:$lhid)"
# PROCEXEC's addresses: a PIE whose MAP_IN records were lost resolves
# from its relocation (pl_dynaddr) and its program headers
{
	echo "exec $T/bin/sym_prog 0 $P"
	for i in 1 2 3; do echo "sample $(h "0x$P + 0x$bar + 2") $(h "0x$P + 0x$main + 4")"; done
} | "$MKLOG" -x "$T/log3" "$pid" &&
	run -R "$T/log3" && cp "$T/out" "$T/nomap" &&
	has nomap '^ +[0-9.]+ +[0-9.]+ +3 +ns::Foo::bar\(int\) +sym_prog$'
ok $? "PROCEXEC's pl_dynaddr places a PIE without its MAP_IN"
# --dump --lines: each frame's line; in bar(), the code of mix() inlined there
inl=$(readelf --debug-dump=info "$T/bin/sym_prog" 2>/dev/null |
      awk '/DW_TAG_inlined_subroutine/ { f = 1 } f && /DW_AT_entry_pc/ { print $NF; exit }')
lcall=$(grep -n 's += mix(i, x);' "$SRC/sym_prog.cc" | cut -d: -f1)
if [ -n "$inl" ] && [ -n "$lcall" ]; then
	{
		echo "exec $T/bin/sym_prog"
		echo "map $P $(h "0x$P + $(size "$T/bin/sym_prog")") 0 $T/bin/sym_prog"
		echo "sample $(h "0x$P + $inl") $(h "0x$P + 0x$main + 4")"
	} | "$MKLOG" -x "$T/log2" "$pid" &&
		run -R "$T/log2" --dump --lines && cp "$T/out" "$T/dump" &&
		has dump "^	0x[0-9a-f]+ ns::Foo::bar\\(int\\) \\(sym_prog\\.cc:$lbar\\) sym_prog sym_prog\\.cc:[0-9]+ in mix inlined at sym_prog\\.cc:$lcall\$" &&
		has dump "^	0x[0-9a-f]+ main \\(sym_prog\\.cc:[0-9]+\\) sym_prog sym_prog\\.cc:[0-9]+\$"
	ok $? "--dump --lines: each frame's source line, a function inlined there (mix, called at line $lcall)"
	run -R "$T/log" --debug-dir "$T/debug" --dump --lines && cp "$T/out" "$T/dumpall" &&
		has dumpall "^	0x[0-9a-f]+ jit_compiled_fn \\[jit\\]\$" &&
		has dumpall "^	0x[0-9a-f]+ sym_hidden_work \\(sym_lib\\.c:$lhid\\) libsym\\.so sym_lib\\.c:[0-9]+\$"
	ok $? "--dump --lines: JIT, kernel, vDSO frames too; lines from the separate debug file"
else
	skip "--dump --lines: a function inlined" "no DW_TAG_inlined_subroutine found by readelf"
fi
run -R "$T/log" --debug-dir "$T/debug" --graph - && cp "$T/out" "$T/graph" &&
	has graph '<- +5 100\.00%  sym_lib_entry  libsym\.so$'
ok $? "--graph: the caller of the stripped library's static function, from .dynsym"
# the vDSO
if [ -n "$vdso" ]; then
	has flat '^ +[0-9.]+ +[0-9.]+ +2 +(__vdso_)?clock_gettime +\[vdso\]$'
	ok $? "[vdso]: this system's vDSO's function"
else
	skip "[vdso]: this system's vDSO's function" "mklog -V could not copy the vDSO"
fi
if [ -n "$kmod" ]; then
	m=$(echo "${kmod#* }" | sed 's/[][]/\\&/g')
	has flat "^ +[0-9.]+ +[0-9.]+ +1 +[^ ]+ +$m\$" &&
		run -R "$T/log" --debug-dir "$T/debug" --folded - && cp "$T/out" "$T/folded" &&
		has folded "_\\[k\\] 1\$"
	ok $? "kernel module function: its module (${kmod#* }) as object, _[k] in folded stacks"
else
	skip "kernel module function" "no module symbols in /proc/kallsyms"
fi

echo "1..$n"
