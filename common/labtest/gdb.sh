# The lab's guided gdb session (LAB/session.gdb) runs on the solution's
# kernel, just graded, and prints what the lesson's transcript says it does.
# timeout: 400
. common/testlib.sh
lab=$1

run=$LOGS/labtest/$lab-solution
[ -f "$run/initramfs.cpio" ] || fail "run after the solution test (no $run/initramfs.cpio)"
sh common/gdb-session.sh "$lab" "$TEST_OBJ" "$run/initramfs.cpio" "$LOGS/labtest/$lab-gdb.txt" ||
	fail "the gdb session of $lab (transcript: $LOGS/labtest/$lab-gdb.txt)"
