# make test: the course's self-test.  It works on worktrees of its own
# (build/test, build/test2, build/test3), never on the student's tree or
# the grading one:
#  1. the foundation (common/selftest/*.sh) on the base kernel;
#  2. for every lab (common/labtest/*.sh): skeletons up to date, solution at
#     full marks and style-clean, skeleton below, each planted bug caught,
#     every test able to fail, two of its mutants killed, the lesson's gdb
#     session as it prints, the steps of its exercise table; and the
#     hand-in round trip, on the first lab.

TEST_TREE := $(BUILD)/test/linux
# Each object folder is the tree's obj/, so that the other lanes' trees can
# start from a copy of the base build (common/clone-obj.sh).
TEST_OBJ  := $(TEST_TREE)/obj
TEST_VARS := KSRC=$(TEST_TREE) KOBJ=$(TEST_OBJ) INITRAMFS=$(BUILD)/test/initramfs.cpio \
	KCONFIG_CACHE=$(abspath $(BUILD))/test/kconfig-cache
SELFTESTS := $(sort $(wildcard common/selftest/*.sh))
# Lane 0 runs the tests that need no kernel (every lab's skeleton check
# among them: skel.sh rewrites the course refs, one at a time; and the
# similarity check, on the labs with an independent solution) while the
# base kernel builds.  Then three lanes run at once, each in a tree of its
# own.  QEMU's TCG runs a guest in one host thread, and a guest spends much
# of a lab 01-02 run asleep (every module unload waits 1-4 s per kobject),
# so on two cores one lane's guest runs while another's kernel builds.
# Lane 1: the foundation's tests on the base kernel, while lanes 2 and 3
# are given copies of its objects.  Lane 2: a student release starting
# lab 02 (make dist: its tree is built at lab 01's solution, a few files
# from the base build), then labs 02 and 03.  Lane 3: the steps of each
# lesson's exercise table, the short bench (on the last lab's kernel: its
# last step was just built), the machine's failures and two graders on one
# tree (that lab again), the hand-in round trip and the student CI files
# (which one lab proves).  Lane 4, in the base tree once lane 1 is done
# with it and the copies are made: labs 01 and 04.  The tests are split by
# the wall time they took in a cold run (6 Dec: lane 2 1607 s, lane 3
# 1928, lane 4 1971 starting 217 s after the others, with the release in
# lane 4), so that the lanes end together: a lane left alone at the end
# keeps one core of two busy.  The skeleton checks generate in
# build/test/gen, not in the student's build/gen (a 'make lab3' meanwhile
# collided on its index).
# Per lab: the solution, its gdb session (on the kernel just built), the
# skeleton, the planted bugs; and, once make mutants-labN has measured the
# lab (its survivors resolved into LAB/mutants-equivalent.txt), a fixed
# sample of its mutants.
LAB_TESTS  = $(foreach d,$(1),$(foreach t,solution gdb skeleton planted,common/labtest/$(t).sh@$(d)) \
	$(if $(wildcard $(d)/mutants-equivalent.txt),common/labtest/mutants-sample.sh@$(d)))
NO_KERNEL := $(filter %-deps.sh %-tree.sh %-kconfig.sh %-grader.sh %-lab-start.sh %-timeouts.sh %-gdb-sources.sh %-profile.sh %-test-select.sh,$(SELFTESTS))
LANE_0    := $(NO_KERNEL) $(foreach d,$(LABS),common/labtest/skels.sh@$(d) common/labtest/mutants.sh@$(d)) \
	$(patsubst solutions/similarity/%,common/labtest/similarity.sh@%,$(wildcard solutions/similarity/lab*))
LANE_1    := $(filter-out %-bench.sh $(NO_KERNEL),$(SELFTESTS))
LANE_4_LABS := $(filter lab01-% lab04-%,$(LABS))
LANE_2    := common/labtest/dist.sh@$(word 2,$(LABS)) $(call LAB_TESTS,$(filter-out $(LANE_4_LABS),$(LABS)))
LANE_3    := $(foreach d,$(LABS),common/labtest/steps.sh@$(d)) $(filter %-bench.sh,$(SELFTESTS)) \
	common/labtest/machine.sh@$(lastword $(LABS)) \
	$(foreach t,handin studentci,common/labtest/$(t).sh@$(firstword $(LABS)))
LANE_4    := $(call LAB_TESTS,$(LANE_4_LABS))
lane_vars  = TEST_TREE=$(BUILD)/test$(1)/linux TEST_OBJ=$(BUILD)/test$(1)/linux/obj
# make test T="lab01 lab04": only the tests whose names contain one of the
# words (developers).
select     = $(if $(T),$(foreach x,$(1),$(if $(strip $(foreach t,$(T),$(findstring $(t),$(x)))),$(x))),$(1))
LANE_0    := $(call select,$(LANE_0))
LANE_1    := $(call select,$(LANE_1))
LANE_2    := $(call select,$(LANE_2))
LANE_3    := $(call select,$(LANE_3))
LANE_4    := $(call select,$(LANE_4))

.PHONY: test test-locked
# One make test at a time: two would share (and reset) the test trees.
test:
	@$(if $(T),$(if $(strip $(LANE_0) $(LANE_1) $(LANE_2) $(LANE_3) $(LANE_4)),,\
		echo 'test: T="$(T)" names no test: say words of names such as solution.sh@lab03 or 08-gdb' >&2; exit 2))
	@mkdir -p $(BUILD)
	@flock -n -E 99 $(BUILD)/.test-lock $(MAKE) --no-print-directory test-locked; rc=$$?; \
	[ $$rc -ne 99 ] || echo "test: another make test is running in this folder (lock: $(BUILD)/.test-lock)"; \
	exit $$rc

# Every worktree the lanes use is made before they start: on a fresh
# machine, three 1.5 GB checkouts at once beside a kernel build can take a
# lane's first skeleton check past its timeout.  The two the base build
# does not need are checked out while it compiles (disk beside CPU: 1 min).
# build/test3-2 is the second grading lane of lane 3's hand-in test (JOBS=2).
LATER_WORKTREES := $(BUILD)/test2/linux $(BUILD)/test3/linux $(BUILD)/test3-2/linux $(BUILD)/test/gen

# What every lane's tests get in their environment, and "clone N [FROM]",
# which gives build/testN the base build's objects (FROM: a tree that has
# them, the base tree by default): disk work, 67 s for three in the cold
# run of 4 Dec.  Lane 1 uses the CPU meanwhile; its tests run kbuild in
# the base tree (make run builds first), so only the first copy is taken
# from there before it starts, the others from that copy.
LANE_ENV = clone() { [ -d $(BUILD)/test$$1/linux/obj ] || sh common/clone-obj.sh $${2:-$(TEST_TREE)} $(BUILD)/test$$1/linux || \
		echo "test: lane $$1 builds its kernel from scratch (clone-obj.sh failed)"; }; export $(TEST_VARS) BZIMAGE=$(TEST_OBJ)/arch/x86/boot/bzImage INITRAMFS=$(BUILD)/test/initramfs.cpio \
	MAKE_VARS="$(TEST_VARS)" KCONFIG="$(COURSE_KCONFIG)" QEMU="$(QEMU)" LOGS=$(LOGS) \
	TEST_TREE=$(TEST_TREE) TEST_OBJ=$(TEST_OBJ) GEN_TREE=$(BUILD)/test/gen $(GUEST_ENV)

# FRESH_MACHINE=1 (.ci/run): the compiler cache is empty and dies with the
# machine, so the base build (a thousand files, all misses) goes around it:
# a miss costs a preprocessor pass more (one file of the course kernel,
# kernel/sched/core.c: 27.1 s through a cold ccache, 22.8 s around it).
# The lanes keep it: the lab's test modules, rebuilt by every graded run
# from the same source, hit.
test-locked: course-refs $(GUEST_TOOLS)
	@sh common/worktree.sh $(KSRC) $(TEST_TREE) base
	@rm -f $(LOGS)/selftest/*.counts $(LOGS)/selftest/times.tsv $(LOGS)/selftest/failures
	@echo "test: $(words $(LANE_0) $(LANE_1) $(LANE_2) $(LANE_3) $(LANE_4)) tests; lane 0 beside the base kernel's build (logs: $(LOGS)/selftest/)"
	@$(LANE_ENV); \
	(for t in $(LATER_WORKTREES); do sh common/worktree.sh $(KSRC) $$t base || exit 1; done; \
		sh common/selftest.sh --lane 0 $(LOGS)/selftest $(LANE_0); exit 0) & \
	$(if $(filter 1,$(FRESH_MACHINE)),CCACHE_DISABLE=1) \
		$(MAKE) --no-print-directory -s kernel initramfs $(TEST_VARS) LOGS=$(BUILD)/test/logs; rc=$$?; \
	wait $$! || { echo "test: a test worktree could not be made"; exit 1; }; exit $$rc
	@echo "test: lane 1 on the base kernel while lanes 2 and 3 get its objects; then lanes 2-4, each in a tree of its own"
	@$(LANE_ENV); \
	clone 2; (clone 3 $(BUILD)/test2/linux; clone 3-2 $(BUILD)/test2/linux) & copies=$$!; \
	sh common/selftest.sh --lane 1 $(LOGS)/selftest $(LANE_1) & foundation=$$!; \
	wait $$copies; \
	(export $(call lane_vars,2); sh common/selftest.sh --lane 2 $(LOGS)/selftest $(LANE_2)) & \
	(export $(call lane_vars,3); sh common/selftest.sh --lane 3 $(LOGS)/selftest $(LANE_3)) & \
	wait $$foundation; \
	sh common/selftest.sh --lane 4 $(LOGS)/selftest $(LANE_4); \
	wait
	@[ ! -s $(LOGS)/selftest/failures ] || { echo "test: what failed, again:"; cat $(LOGS)/selftest/failures; }
	@# a lane that left no count (killed, crashed) is a failure, not a zero
	@for n in 0 1 2 3 4; do cat $(LOGS)/selftest/$$n.counts 2>/dev/null || \
		{ echo "test: lane $$n left no count" >&2; echo "0 1"; }; done | \
		awk '{ p += $$1; f += $$2 } END { printf "%d passed, %d failed\n", p, f; exit f > 0 }'

# make soak: the course kernel booted SOAK_BOOTS times, SOAK_PAR at once,
# beside SOAK_LOAD kernel builds, and what went wrong at boot counted
# (common/soak.sh): a check that a machine's graded runs do not depend on
# its load.  SOAK_VARIANTS: accelerators to compare (default: a graded
# run's), e.g. "tcg-measuring tcg icount".
SOAK_BOOTS ?= 300
SOAK_LOAD  ?= 2
SOAK_PAR   ?= 2
.PHONY: soak
soak: kernel initramfs
	@sh common/soak.sh $(BZIMAGE) $(INITRAMFS) $(KSRC) $(BUILD)/soak $(SOAK_BOOTS) $(SOAK_LOAD) $(SOAK_PAR) $(SOAK_VARIANTS)
