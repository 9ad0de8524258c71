# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# hwpmc for Linux: shared helpers of the VM test harness (bash, sourced by
# scripts/vm/*.sh, scripts/demo.sh and .ci/run).
#
# Knobs (environment):
#   HWPMC_KVER_61      Debian 6.1 ABI to test      (default 6.1.0-56)
#   HWPMC_KVER_612     Debian 6.12 version to test (default 6.12.117+deb12)
#                      When the default is no longer in the archive, the
#                      newest one apt knows of in the same series is used.
#   HWPMC_VM_KERNELS   full list of guest kernels, overriding the above
#                      (e.g. "6.1.0-56-amd64 6.1.0-56-arm64")
#   HWPMC_VM_CACHE     downloaded .debs and extracted kernels
#                      (default /var/cache/hwpmc-ci when writable, else build/vm/cache)
#   HWPMC_VM_ACCEL     kvm or tcg (default: probe once whether KVM really works)

HWPMC_TOP=${HWPMC_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
HWPMC_B=${B:-$HWPMC_TOP/build}
HWPMC_VMDIR=${HWPMC_VMDIR:-$HWPMC_B/vm}
HWPMC_KVER_61=${HWPMC_KVER_61:-6.1.0-56}
HWPMC_KVER_612=${HWPMC_KVER_612:-6.12.117+deb12}

if [ -z "${HWPMC_VM_CACHE:-}" ]; then
	if mkdir -p /var/cache/hwpmc-ci 2>/dev/null && [ -w /var/cache/hwpmc-ci ]; then
		HWPMC_VM_CACHE=/var/cache/hwpmc-ci
	else
		HWPMC_VM_CACHE=$HWPMC_VMDIR/cache
	fi
fi

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The package version (include/hwpmc_version.h, as the Makefile and
# dkms.conf read it).
hwpmc_version() {
	if [ -n "${VERSION:-}" ]; then echo "$VERSION"; return; fi
	sed -n 's/^#define HWPMC_VERSION_STRING[[:space:]]*"\(.*\)"$/\1/p' \
		"$HWPMC_TOP/include/hwpmc_version.h"
}

# apt knows a package (in an index or installed)?
apt_has() { apt-cache show "$1" >/dev/null 2>&1; }

# resolve_series 6.1.0-56 amd64 -> 6.1.0-56-amd64, or the newest 6.1 ABI
# in the archive if that one is gone.
resolve_series() {
	local want=$1 arch=$2 series cand
	if apt_has "linux-image-$want-$arch" || apt_has "linux-image-$want-$arch-unsigned" ||
	   [ -d "/usr/src/linux-headers-$want-$arch" ]; then
		echo "$want-$arch"; return
	fi
	case $want in
	6.1.0-*) series='6\.1\.0-[0-9]+' ;;
	*) series="$(echo "${want%%.*}.$(echo "$want" | cut -d. -f2)" | sed 's/\./\\./g')\\.[0-9]+\\+deb12" ;;
	esac
	cand=$(apt-cache pkgnames linux-headers- 2>/dev/null |
		grep -E "^linux-headers-$series-$arch\$" | sed "s/^linux-headers-//; s/-$arch\$//" |
		sort -V | tail -n 1)
	[ -n "$cand" ] || cand=$want
	log "note: linux $want-$arch not available, using $cand-$arch"
	echo "$cand-$arch"
}

# The guest kernels to test, one per line (x86-64 first, then arm64).
vm_kernels() {
	if [ -n "${HWPMC_VM_KERNELS:-}" ]; then
		printf '%s\n' $HWPMC_VM_KERNELS
		return
	fi
	resolve_series "$HWPMC_KVER_61" amd64
	resolve_series "$HWPMC_KVER_612" amd64
	resolve_series "$HWPMC_KVER_61" arm64
}

kver_arch() {
	case $1 in
	*-arm64) echo arm64 ;;
	*-amd64|debug) echo amd64 ;;
	*) die "cannot tell the architecture of kernel $1" ;;
	esac
}

# Download (once) a Debian package into the cache and print the .deb path.
fetch_deb() {
	local pkg=$1 name arch deb
	name=${pkg%%:*}
	arch=amd64
	case $pkg in *:*) arch=${pkg#*:} ;; esac
	mkdir -p "$HWPMC_VM_CACHE/debs"
	deb=$(ls "$HWPMC_VM_CACHE/debs/${name}_"*"_$arch.deb" 2>/dev/null | sort -V | tail -n 1)
	if [ -z "$deb" ]; then
		log "apt-get download $pkg"
		(cd "$HWPMC_VM_CACHE/debs" && apt-get download "$pkg" 2>&1 | grep -v 'unsandboxed as root' >&2) ||
			die "apt-get download $pkg failed (is the version still in the archive? set HWPMC_KVER_61/HWPMC_KVER_612)"
		deb=$(ls "$HWPMC_VM_CACHE/debs/${name}_"*"_$arch.deb" 2>/dev/null | sort -V | tail -n 1)
		[ -n "$deb" ] || die "apt-get download $pkg produced no .deb"
	fi
	echo "$deb"
}

# Kernel image and module lists of a guest kernel, extracted from its
# Debian package (never installed): prints the directory holding
# vmlinuz-<kver> and modules.builtin*, modules.order.
fetch_kernel() {
	local kver=$1 arch pkg deb dir
	arch=$(kver_arch "$kver")
	dir=$HWPMC_VM_CACHE/kernel/$kver
	if [ ! -s "$dir/vmlinuz-$kver" ]; then
		pkg=linux-image-$kver
		[ "$arch" = arm64 ] && pkg=linux-image-$kver-unsigned:arm64
		deb=$(fetch_deb "$pkg")
		rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir.tmp" --wildcards \
			"./boot/vmlinuz-$kver" "./lib/modules/$kver/modules.builtin*" \
			"./lib/modules/$kver/modules.order" ||
			die "cannot extract the kernel from $deb"
		mv "$dir.tmp/boot/vmlinuz-$kver" "$dir.tmp/"
		mv "$dir.tmp/lib/modules/$kver/"* "$dir.tmp/"
		rm -rf "$dir.tmp/boot" "$dir.tmp/lib"
		rm -rf "$dir" && mv "$dir.tmp" "$dir"
	fi
	echo "$dir"
}

# arm64 build tree for cross-building the module: the headers package
# unpacked into the cache, its relative links to the kbuild tools pointed at
# the host's (same version, amd64) linux-kbuild.  Prints the KDIR.
fetch_arm64_headers() {
	local kver=$1 deb root kb
	root=$HWPMC_VM_CACHE/arm64-root/$kver
	if [ ! -f "$root/usr/src/linux-headers-$kver/Makefile" ]; then
		deb=$(fetch_deb "linux-headers-$kver:arm64")
		rm -rf "$root" && mkdir -p "$root"
		dpkg -x "$deb" "$root" || die "cannot unpack $deb"
	fi
	for kb in /usr/lib/linux-kbuild-*; do
		[ -d "$kb" ] || continue
		mkdir -p "$root/usr/lib"
		ln -sfn "$kb" "$root/usr/lib/${kb##*/}"
	done
	local common
	common=$(sed -n 's/^include[[:space:]]*\(.*\)\/Makefile$/\1/p' "$root/usr/src/linux-headers-$kver/Makefile" | sed -n 1p)
	if [ -n "$common" ] && [ ! -d "$common" ]; then
		die "$common is missing: apt-get install ${common##*/}"
	fi
	echo "$root/usr/src/linux-headers-$kver"
}

# Static busybox for the guest: the host's for amd64, busybox-static:arm64's
# for arm64.
fetch_busybox() {
	local arch=$1 deb dir
	if [ "$arch" = amd64 ]; then
		[ -x /bin/busybox ] || die "busybox-static is not installed"
		file -L /bin/busybox 2>/dev/null | grep -q 'statically linked' ||
			die "/bin/busybox is not static: apt-get install busybox-static"
		echo /bin/busybox
		return
	fi
	dir=$HWPMC_VM_CACHE/busybox-$arch
	if [ ! -x "$dir/bin/busybox" ]; then
		deb=$(fetch_deb "busybox-static:$arch")
		rm -rf "$dir" && mkdir -p "$dir"
		dpkg -x "$deb" "$dir"
	fi
	echo "$dir/bin/busybox"
}

# Debian's arm64 elfutils and libiberty as static archives with their
# headers (downloaded, never installed), for the static arm64 hwpmc-stat:
# libdwfl's symbols, --call-graph dwarf's unwinding, the demangler.
# Prints the root they are unpacked into (ROOT/usr/include,
# ROOT/usr/lib/aarch64-linux-gnu).
HWPMC_DW_ARM64_DEBS="libdw-dev libelf-dev zlib1g-dev liblzma-dev libbz2-dev libiberty-dev"
fetch_arm64_dw() {
	local dir=$HWPMC_VM_CACHE/dw-arm64 pkg deb
	if [ ! -f "$dir/usr/lib/aarch64-linux-gnu/libdw.a" ]; then
		rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
		for pkg in $HWPMC_DW_ARM64_DEBS; do
			deb=$(fetch_deb "$pkg:arm64")
			dpkg -x "$deb" "$dir.tmp" || die "cannot unpack $deb"
		done
		rm -rf "$dir" && mv "$dir.tmp" "$dir"
	fi
	echo "$dir"
}

# Debian's arm64 udevadm (systemd-udevd) with the shared libraries it
# needs, unpacked from arm64 packages (downloaded, never installed) into a
# root in the cache; prints that root.  Every library udevadm needs,
# directly or not, must be found there; ROOT/needed lists them (paths
# relative to ROOT, the loader first).
HWPMC_UDEV_ARM64_DEBS="udev libc6 libacl1 libblkid1 libcap2 libkmod2 libselinux1 libzstd1 liblzma5 libssl3 libpcre2-8-0"
fetch_arm64_udev() {
	local dir=$HWPMC_VM_CACHE/udev-arm64 pkg deb lib todo needed todo_all=
	if [ ! -x "$dir/bin/udevadm" ]; then
		rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
		for pkg in $HWPMC_UDEV_ARM64_DEBS; do
			deb=$(fetch_deb "$pkg:arm64")
			dpkg -x "$deb" "$dir.tmp" || die "cannot unpack $deb"
		done
		rm -rf "$dir" && mv "$dir.tmp" "$dir"
	fi
	# the closure of DT_NEEDED, as the arm64 loader will look for it
	todo=bin/udevadm needed=
	while [ -n "$todo" ]; do
		set -- $todo
		todo=
		for f in "$@"; do
			for lib in $(aarch64-linux-gnu-readelf -d "$dir/$f" 2>/dev/null |
				     sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
				case " $needed " in *" $lib "*) continue ;; esac
				[ -e "$dir/lib/aarch64-linux-gnu/$lib" ] || [ -e "$dir/usr/lib/aarch64-linux-gnu/$lib" ] ||
					die "arm64 udevadm needs $lib, not in $HWPMC_UDEV_ARM64_DEBS (scripts/vm/lib.sh)"
				needed="$needed $lib"
				if [ -e "$dir/lib/aarch64-linux-gnu/$lib" ]; then
					todo="$todo lib/aarch64-linux-gnu/$lib"
				else
					todo="$todo usr/lib/aarch64-linux-gnu/$lib"
				fi
				todo_all="$todo_all ${todo##* }"
			done
		done
	done
	printf '%s\n' lib/aarch64-linux-gnu/ld-linux-aarch64.so.1 $todo_all > "$dir/needed"
	echo "$dir"
}

# Is KVM usable for real (nested KVM may exist and still hang or abort)?
# Boots the given kernel with a one-line init under KVM; caches the verdict.
vm_accel() {
	local kernel=$1 cache=$HWPMC_VMDIR/accel t out
	if [ -n "${HWPMC_VM_ACCEL:-}" ]; then echo "$HWPMC_VM_ACCEL"; return; fi
	if [ -s "$cache" ]; then cat "$cache"; return; fi
	mkdir -p "$HWPMC_VMDIR"
	if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		echo tcg > "$cache"; echo tcg; return
	fi
	t=$(mktemp -d)
	mkdir -p "$t/ir/bin"
	cp "$(fetch_busybox amd64)" "$t/ir/bin/busybox"
	printf '#!/bin/busybox sh\n/bin/busybox echo HWPMC-KVM-PROBE-OK\n/bin/busybox poweroff -f\n' > "$t/ir/init"
	chmod +x "$t/ir/init"
	(cd "$t/ir" && find . | cpio -o -H newc --quiet | gzip -1) > "$t/ir.gz"
	out=$(timeout 20 qemu-system-x86_64 -accel kvm -m 256 -nographic -no-reboot -monitor none \
		-nodefaults -serial stdio -kernel "$kernel" -initrd "$t/ir.gz" \
		-append "console=ttyS0 panic=-1 quiet" 2>&1 || true)
	rm -rf "$t"
	if printf '%s' "$out" | grep -q HWPMC-KVM-PROBE-OK; then
		echo kvm > "$cache"
	else
		log "KVM is not usable here (nested KVM hangs or fails); using TCG"
		echo tcg > "$cache"
	fi
	cat "$cache"
}
