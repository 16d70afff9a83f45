# Mechanism shared by every lab: packages, kernel tree, configuration, build,
# initramfs, QEMU and gdb.  The top-level Makefile sets the paths.

# stripped: the guest unpacks its initramfs slowly (see common/check.sh)
HOST_CFLAGS := -O2 -Wall -Wextra -static -s
QEMU        := sh common/qemu.sh
GUEST_FILES := common/guest/profile common/guest/passwd common/guest/group

.PHONY: help deps tree config kernel stage initramfs run debug gdb tmux clean

help:
	@echo "Students"
	@echo "  make run         boot the lab kernel in QEMU with a shell (leave: poweroff, or Ctrl-A X)"
	@echo "  make debug       boot it stopped, waiting for gdb on port $(GDB_PORT)"
	@echo "  make gdb         attach gdb (scripts/gdb helpers loaded) to 'make debug'"
	@echo "  make tmux        'make debug' and 'make gdb' side by side in tmux"
	@echo "  make gdb-labN    the lesson's guided gdb session, scripted, on your kernel"
	@echo "  make labN        start lab N in $(KSRC): branch labN, skeleton applied, tag labN-start (OWN=1: on your own earlier labs)"
	@echo "  make check-labN  grade your lab N: build, boot, run its tests; Score: X/Y"
	@echo "                   T=\"one_listener storm\": only those tests (and no kmemleak scan)"
	@echo "                   FAILFAST=1: stop at the first failing test (the rest: not run)"
	@echo "  make handin-labN write handin/labN.patch (your commits since labN-start), checkpatch it"
	@echo "Instructors"
	@echo "  make check-labN HANDIN=file.patch   grade one hand-in on a separate worktree"
	@echo "  make grade-labN HANDINS=dir/        grade every dir/*.patch into a CSV"
	@echo "                   HOSTS=hosts.txt: on other machines (GNU parallel over ssh); SLURM=1: a Slurm job array"
	@echo "  make similarity-labN HANDINS=dir/   rank the pairs of hand-ins that look copied"
	@echo "  make profile-labN                   where a graded run's time goes (the solution, timed step by step)"
	@echo "  make mutants-labN                   the tests measured: mutants of the lab's code (Coccinelle), graded"
	@echo "                   SAMPLE=N SEED=S: the student-written regions' all and N of the rest; JOBS, HOSTS as for grade-labN"
	@echo "  make dist DEST=dir RELEASED=\"lab01 lab02\"  a student repository: those labs and the next one's skeleton"
	@echo "  make skels       regenerate each lab's skeleton from solutions/"
	@echo "  make kill-matrix write each lab's kill matrix (instructors.md) from the last make test's planted runs"
	@echo "  make check       check-labN for every lab"
	@echo "  make test        self-test of the whole course, ending 'N passed, N failed'"
	@echo "  make soak        boot the kernel 300 times beside 2 kernel builds; count hangs and lost clocks"
	@echo "  make bench       the labs' costs measured in one boot, and the course's speed: build/bench/out/bench.txt"
	@echo "Steps (run for you by the targets above)"
	@echo "  make deps        check the Debian packages, installing missing ones as root"
	@echo "  make tree        extract linux-source into $(KSRC) as a git tree tagged 'base'"
	@echo "  make config      layer tinyconfig + $(KCONFIG) and check the result"
	@echo "  make kernel      build the kernel (log: $(LOGS)/kernel-build.log)"
	@echo "  make initramfs   pack busybox, /init and the lab files into $(INITRAMFS)"
	@echo "  make clean       remove build products; never the kernel tree in $(KSRC)"

deps:
	@sh common/deps.sh

tree: | deps
	@sh common/tree.sh $(KSRC)

config: | tree
	@sh common/kconfig.sh $(KSRC) $(KOBJ) $(LOGS)/kconfig.log $(KCONFIG)

# kbuild itself knows what changed in the tree, so always ask it.
kernel: | tree
	@sh common/kernel.sh $(KSRC) $(KOBJ) $(LOGS) $(KCONFIG)

# /lab in make run: the programs, tests and modules of the lab the tree is on
RUN_STAGE := $(BUILD)/run/stage
stage: kernel $(GUEST_TOOLS)
	@rm -rf $(RUN_STAGE)
	$(if $(CURRENT_LAB),@KERNEL_BUILT=1 STAGE_ONLY=1 $(GUEST_ENV) sh common/check.sh \
		$(LAB_DIR_$(CURRENT_LAB)) $(KSRC) $(KOBJ) $(BUILD)/run $(KCONFIG))

$(BUILD)/tools/gen_init_cpio: | tree
	@mkdir -p $(@D)
	$(CC) -O2 -o $@ $(KSRC)/usr/gen_init_cpio.c

# The guest's C programs, static: /init and the graded tests' runner.
$(BUILD)/guest/%: common/guest/%.c | deps
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -o $@ $<

# Repacked only when an input changed (initramfs.sh compares its list).
initramfs: stage $(GUEST_TOOLS)
	@sh common/initramfs.sh $(BUILD)/tools/gen_init_cpio $(BUILD)/guest/init $(INITRAMFS) $(RUN_STAGE)

# A guest that has not reached /init after BOOT_BUDGET seconds (60: on a
# loaded host, TCG's two CPUs can lose their timer at boot and hang) is
# booted again.
run: kernel initramfs
	@$(QEMU) --interactive --boot-budget $(or $(BOOT_BUDGET),60) --tries 3 --log $(LOGS)/console.log $(BZIMAGE) $(INITRAMFS)

DEBUG_CMD = $(QEMU) --interactive --gdb $(GDB_PORT) --log $(LOGS)/console.log $(BZIMAGE) $(INITRAMFS)
# gdb retries the connection for 15 s (tcp auto-retry), so it may start first.
# Objects from ccache may name another tree's directory as theirs: gdb reads
# this tree's sources for all of them (gdb-sources.sh).
GDB_SOURCES = $(abspath $(KOBJ))/sources.gdb
GDB_CMD   = sh common/gdb-sources.sh $(VMLINUX) $(KOBJ) >$(GDB_SOURCES) && \
	gdb -q -iex "add-auto-load-safe-path $(abspath $(KOBJ))" -x $(GDB_SOURCES) \
	-ex "source $(KOBJ)/vmlinux-gdb.py" -ex "target remote 127.0.0.1:$(GDB_PORT)" \
	-x common/lab.gdb $(GDB_ARGS) $(VMLINUX)

debug: kernel initramfs
	@echo "debug: QEMU waits for gdb on 127.0.0.1:$(GDB_PORT): run 'make gdb' in another terminal"
	@$(DEBUG_CMD)

gdb: | deps
	@test -r $(VMLINUX) || { echo "gdb: $(VMLINUX) not found: run 'make debug' first"; exit 1; }
	@$(GDB_CMD)

tmux: kernel initramfs
	@sh common/tmux.sh '$(DEBUG_CMD)' '$(GDB_CMD)'

clean:
	rm -rf $(BUILD)/obj $(BUILD)/guest $(BUILD)/tools $(INITRAMFS) $(INITRAMFS).list $(LOGS) \
		$(BUILD)/accel $(BUILD)/run $(BUILD)/check $(BUILD)/gen-out
	@echo "clean: the kernel tree $(KSRC) is kept (it holds your work)."
