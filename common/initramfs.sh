#!/bin/sh
# Pack the course initramfs with the kernel's own gen_init_cpio: busybox as
# /bin/sh, our C /init, and every file under the given staging
# folders placed below /lab.  No root needed: device nodes come from the list.
#
#   initramfs.sh GEN_INIT_CPIO INIT OUT.cpio [STAGING-DIR ...]
set -eu

gen=$1 init=$2 out=$3
shift 3
here=$(dirname "$0")
busybox=$(command -v busybox) || { echo "initramfs: busybox not found: run 'make deps'" >&2; exit 1; }

list=$out.list
{
	for d in /bin /sbin /usr /usr/bin /usr/sbin /dev /etc /proc /sys /tmp /root /lab; do
		echo "dir $d 755 0 0"
	done
	echo "nod /dev/console 600 0 0 c 5 1"
	echo "file /init $init 755 0 0"
	echo "file /bin/busybox $(readlink -f "$busybox") 755 0 0"
	# No link per applet: Debian's busybox shell runs its applets without
	# them, /init makes the link of a command it is asked to run, and the
	# 268 links cost 1.7 s of every boot under the debug kernel in TCG
	# (unpacking a 2.7 MB initramfs: 2.0-2.2 s with them, 0.3-0.5 without).
	echo "slink /bin/sh /bin/busybox 777 0 0"
	echo "file /etc/profile $here/guest/profile 644 0 0"
	echo "file /etc/passwd $here/guest/passwd 644 0 0"
	echo "file /etc/group $here/guest/group 644 0 0"
	for stage in "$@"; do
		[ -d "$stage" ] || continue
		find "$stage" -mindepth 1 | sort | while read -r f; do
			rel=${f#"$stage"/}
			if [ -d "$f" ]; then
				echo "dir /lab/$rel 755 0 0"
			else
				echo "file /lab/$rel $f $(stat -c %a "$f") 0 0"
			fi
		done
	done
} >"$list.new"

# Repack only when the list or the contents of a file on it changed (the
# lab files are rebuilt on each run, so their dates say nothing).
awk '$1 == "file" { print $3 }' "$list.new" | xargs cksum | cat "$list.new" - >"$list.sum.new"
if [ -f "$out" ] && cmp -s "$list.sum.new" "$out.sum"; then
	rm "$list.new" "$list.sum.new"
	exit 0
fi
mv "$list.new" "$list"
"$gen" "$list" >"$out.tmp"
mv "$out.tmp" "$out"
mv "$list.sum.new" "$out.sum"
