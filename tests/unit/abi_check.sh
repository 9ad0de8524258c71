#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Compare the ABI layout table of abi_layout.c compiled for -m64 and -m32
# (objects only: no 32-bit libc or libgcc needed), and the same table built
# from libhwpmc's <sys/pmc.h> view with it.  Prints TAP.
#   abi_check.sh <src-dir> <work-dir> [names-program]
# CC and CPPFLAGS come from the environment.
set -u
SRC=$1; W=$2; NAMES=${3:-}
CC=${CC:-gcc}
mkdir -p "$W"
n=0; fail=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }

build() { # $1 = 32 | 64, $2 = abi | pmc (the uapi or libhwpmc's view)
	o="$W/$2$1"; def=; [ "$2" = pmc ] && def=-DLAYOUT_PMC_VIEW
	"$CC" $CPPFLAGS $def -m"$1" -O2 -c "$SRC/tests/unit/abi_layout.c" -o "$o.o" 2>"$o.err" && return 0
	# Debian puts <asm/types.h> under the multiarch directory only
	"$CC" $CPPFLAGS $def -I/usr/include/x86_64-linux-gnu -m"$1" -O2 -c \
		"$SRC/tests/unit/abi_layout.c" -o "$o.o" 2>"$o.err"
}

for v in abi pmc; do
	what="abi_layout.c"; [ $v = pmc ] && what="abi_layout.c (<sys/pmc.h> view)"
	for m in 64 32; do
		rm -f "$W/$v$m.bin"
		if build $m $v && objcopy -O binary -j .hwpmc_layout "$W/$v$m.o" "$W/$v$m.bin"; then
			ok 0 "$what compiles with -m$m"
		else
			sed 's/^/# /' "$W/$v$m.err"
			ok 1 "$what compiles with -m$m"
		fi
	done
done
for m in 64 32; do
	if [ -s "$W/pmc$m.bin" ] && cmp -s "$W/abi$m.bin" "$W/pmc$m.bin"; then
		ok 0 "-m$m: <sys/pmc.h>/<sys/pmclog.h> layout = hwpmc.h/hwpmclog.h layout"
	else
		if [ -s "$W/pmc$m.bin" ] && [ -s "$W/abi$m.bin" ]; then
			od -An -v -w12 -tu4 "$W/abi$m.bin" > "$W/v_abi.txt"
			od -An -v -w12 -tu4 "$W/pmc$m.bin" > "$W/v_pmc.txt"
			if [ -n "$NAMES" ]; then
				"$NAMES" --names > "$W/names.txt"
				paste -d' ' "$W/names.txt" "$W/v_abi.txt" > "$W/v_abi"
				paste -d' ' "$W/names.txt" "$W/v_pmc.txt" > "$W/v_pmc"
			else
				cp "$W/v_abi.txt" "$W/v_abi"; cp "$W/v_pmc.txt" "$W/v_pmc"
			fi
			echo "# -m$m layout differs (name kind offset/size size; uapi then <sys/pmc.h>):"
			diff "$W/v_abi" "$W/v_pmc" | grep '^[<>]' | head -20 | sed 's/^/# /'
		fi
		ok 1 "-m$m: <sys/pmc.h>/<sys/pmclog.h> layout = hwpmc.h/hwpmclog.h layout"
	fi
done

if [ -s "$W/abi64.bin" ] && [ -s "$W/abi32.bin" ]; then
	if cmp -s "$W/abi64.bin" "$W/abi32.bin"; then
		ok 0 "hwpmc.h/hwpmclog.h layout identical for -m64 and -m32 ($(wc -c < "$W/abi64.bin") bytes of table)"
	else
		od -An -v -w12 -tu4 "$W/abi64.bin" > "$W/abi64.txt"
		od -An -v -w12 -tu4 "$W/abi32.bin" > "$W/abi32.txt"
		if [ -n "$NAMES" ]; then
			"$NAMES" --names > "$W/names.txt"
			paste -d' ' "$W/names.txt" "$W/abi64.txt" > "$W/l64"
			paste -d' ' "$W/names.txt" "$W/abi32.txt" > "$W/l32"
		else
			cp "$W/abi64.txt" "$W/l64"; cp "$W/abi32.txt" "$W/l32"
		fi
		echo "# layout differs (name kind offset/size size; -m64 then -m32):"
		diff "$W/l64" "$W/l32" | grep '^[<>]' | sed 's/^/# /'
		ok 1 "hwpmc.h/hwpmclog.h layout identical for -m64 and -m32"
	fi
else
	ok 1 "hwpmc.h/hwpmclog.h layout identical for -m64 and -m32 (not built)"
fi
echo "1..$n"
exit $fail
