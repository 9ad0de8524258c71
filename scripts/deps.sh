#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: install what building and testing need, on Debian 12
# (bookworm) x86-64, as root or with sudo.  Idempotent.  Used by .ci/run
# and scripts/demo.sh; HWPMC_SKIP_DEPS=1 skips it (packages already there).
#
#   - the packages below;
#   - the arm64 dpkg architecture (the arm64 guest's kernel, headers and
#     busybox are downloaded, never installed);
#   - the headers of the guest kernels (scripts/vm/lib.sh vm_kernels).

set -euo pipefail
[ "${HWPMC_SKIP_DEPS:-0}" = 1 ] && exit 0
top=$(cd "$(dirname "$0")/.." && pwd)

SUDO=
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || { echo "error: run as root" >&2; exit 1; }
	SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive

PACKAGES=(
	build-essential file git cpio xz-utils kmod pkg-config
	# the module: kernel headers (below), BTF for 6.12 (pahole), sparse, DKMS
	dwarves libelf-dev sparse dkms openssl
	# the library and tools: libkmod, ncurses (hwpmc-stat -T); -m32 ABI checks and i386 selftests
	libkmod-dev libncurses-dev libc6-dev-i386 lib32gcc-12-dev
	# hwpmc-stat's symbols: elfutils' libdwfl (separate debug files by
	# build-id and .gnu_debuglink, debuginfod, source lines) and libiberty's
	# C++ and Rust demangler
	libdw-dev libiberty-dev
	# hwpmc-stat --annotate: capstone disassembles the annotated function
	libcapstone-dev
	# libhwpmc's vendor event tables: generated from the pmu-events JSON of
	# linux-source-6.12 (below) by libhwpmc/gen_pmu_events.py; their
	# libpfm4 aliases from libpfm4's own events (libhwpmc/gen_pfm_events.c)
	python3 libpfm4-dev
	# hwpmc-stat --pprof: protoc-c makes the C of tools/profile.proto at build
	# time, libprotobuf-c encodes it, zlib gzips it
	protobuf-c-compiler libprotobuf-c-dev zlib1g-dev
	# hwpmc-stat --flamegraph's tests (make check-unit): xmllint checks the
	# SVG, headless chromium draws it
	libxml2-utils chromium
	# the pmclog(3) fuzz target (make check-unit): clang with libFuzzer
	# (libclang_rt.fuzzer comes in libclang-rt-14-dev, only recommended)
	clang libclang-rt-14-dev
	# selftests: kselftest.h and kselftest_harness.h come from the kernel source tarball;
	# it is also what the debug kernel is built from (scripts/vm/debug-kernel.sh)
	linux-source-6.12 flex bison bc
	# the guests; perf, to compare counts with in the guest; udev: systemd-udevd
	# applies the installed rule in the x86-64 guests (arm64: downloaded)
	qemu-system-x86 qemu-system-arm busybox-static linux-perf udev
	# arm64: cross compiler for the module and the static userland; C++
	# for the selftests' std::sort program (hwpmc_unwind.sh)
	gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross
)
# (not gcc-multilib: it conflicts with the cross compiler)

if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	$SUDO dpkg --add-architecture arm64
fi
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${PACKAGES[@]}"
# kernel headers of the x86-64 guests (and of the arm64 guest: its -common
# package is arch-independent and comes with the amd64 one)
. "$top/scripts/vm/lib.sh"
hdrs=()
for k in $(vm_kernels); do
	case $k in *-amd64) hdrs+=("linux-headers-$k") ;; esac
done
echo "guest kernels: $(vm_kernels | tr '\n' ' ')"
$SUDO apt-get install -y -q --no-install-recommends "${hdrs[@]}"
# and, where Debian has them, the running kernel's headers, so that the
# module can be built for it (not on CI machines, whose kernel is not
# Debian's: the guests are used there)
k=$(uname -r)
if [ ! -e "/lib/modules/$k/build/Makefile" ] &&
   apt-cache show "linux-headers-$k" >/dev/null 2>&1; then
	$SUDO apt-get install -y -q --no-install-recommends "linux-headers-$k" ||
		echo "note: could not install linux-headers-$k; the demo will use a VM"
fi
