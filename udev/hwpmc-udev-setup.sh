#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: install the udev rule giving /dev/hwpmc to group
# "hwpmc", mode 0660, and create that group when it is missing.  Run by
# "make install-udev" and by DKMS after each "dkms install" (dkms.conf
# POST_INSTALL); running it again changes nothing.
#
#   hwpmc-udev-setup.sh [ROOT | INSTALL_TREE]
#
# ROOT: the system to set up (default /).  DKMS passes its install tree
# (/lib/modules, or DIR/lib/modules with --installtree), which means the
# system rooted at DIR: a staged root such as the test guests' gets the
# rule and the group in its own /etc.  Under a root other than /, the
# group is added with groupadd --prefix, or to ROOT/etc/group directly
# when that root has no shadow files.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=${1:-/}
case $root in
*/lib/modules|*/lib/modules/) root=${root%/}; root=${root%/lib/modules} ;;
esac
root=${root%/}
rules=$root/etc/udev/rules.d

mkdir -p "$rules"
if ! cmp -s "$here/70-hwpmc.rules" "$rules/70-hwpmc.rules"; then
	cp "$here/70-hwpmc.rules" "$rules/70-hwpmc.rules.tmp"
	chmod 0644 "$rules/70-hwpmc.rules.tmp"
	mv "$rules/70-hwpmc.rules.tmp" "$rules/70-hwpmc.rules"
	echo "hwpmc: installed $rules/70-hwpmc.rules"
fi

if [ -z "$root" ]; then
	if ! getent group hwpmc >/dev/null; then
		groupadd --system hwpmc
		echo "hwpmc: created group hwpmc (add users: usermod -aG hwpmc USER)"
	fi
	# a running udevd: read the rule now, and apply it to a loaded module
	if command -v udevadm >/dev/null 2>&1 && [ -d /run/udev ]; then
		udevadm control --reload-rules || true
		if [ -e /dev/hwpmc ]; then
			udevadm trigger --subsystem-match=misc --sysname-match=hwpmc || true
		fi
	fi
else
	mkdir -p "$root/etc"
	[ -f "$root/etc/group" ] || echo "root:x:0:" > "$root/etc/group"
	if ! grep -q '^hwpmc:' "$root/etc/group"; then
		if [ -f "$root/etc/gshadow" ]; then
			groupadd --prefix "$root" --system hwpmc
		else
			# the first free system gid, as groupadd would choose
			gid=999
			while cut -d: -f3 "$root/etc/group" | grep -qx "$gid"; do
				gid=$((gid - 1))
			done
			echo "hwpmc:x:$gid:" >> "$root/etc/group"
		fi
		echo "hwpmc: created group hwpmc in $root/etc/group"
	fi
fi
