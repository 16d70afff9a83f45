# make test: the course's self-test.  It works on worktrees of its own
# (build/test, build/test2), never on the student's tree or the grading one:
#  1. the foundation (common/selftest/*.sh) on the base kernel;
#  2. for every lab (common/labtest/*.sh): skeletons up to date, solution at
#     full marks and style-clean, skeleton below, each planted bug caught,
#     every test able to fail; and the hand-in round trip, on the first lab.

TEST_TREE := $(BUILD)/test/linux
# Each object folder is the tree's obj/, so that lane 2's tree can start
# from a copy of the base build (common/clone-obj.sh).
TEST_OBJ  := $(TEST_TREE)/obj
TEST_VARS := KSRC=$(TEST_TREE) KOBJ=$(TEST_OBJ) INITRAMFS=$(BUILD)/test/initramfs.cpio
SELFTESTS := $(sort $(wildcard common/selftest/*.sh))
# Two lanes run at once: QEMU's TCG runs a guest in one host thread, so on
# two cores one lane's guest runs while the other's kernel builds or boots.
# Lane 1: the foundation, every lab's skeleton check (skel.sh rewrites the
# course refs: one at a time), the odd labs; lane 2, in a tree of its own:
# the even labs, the short bench (on the last lab's kernel, just built),
# the hand-in round trip (which one lab proves).  The skeleton checks
# generate in build/test/gen, not in the student's build/gen (a 'make lab3'
# meanwhile collided on its index).  Per lab: the solution, its gdb session
# (on the kernel just built), the skeleton, the planted bugs.
# STEPS=1 adds the steps of each lesson's exercise table: nine more kernel
# builds and boots, which the 45 min budget does not hold today.
LAB_TESTS  = $(foreach d,$(1),$(foreach t,solution gdb skeleton planted $(if $(STEPS),steps),common/labtest/$(t).sh@$(d)))
LANE_1    := $(filter-out %-bench.sh,$(SELFTESTS)) $(foreach d,$(LABS),common/labtest/skels.sh@$(d)) \
	$(call LAB_TESTS,$(shell echo $(LABS) | tr ' ' '\n' | awk 'NR % 2'))
LANE_2    := $(call LAB_TESTS,$(shell echo $(LABS) | tr ' ' '\n' | awk 'NR % 2 == 0')) \
	$(filter %-bench.sh,$(SELFTESTS)) common/labtest/handin.sh@$(firstword $(LABS))
LANE_2_VARS := TEST_TREE=$(BUILD)/test2/linux TEST_OBJ=$(BUILD)/test2/linux/obj
# make test T="lab01 lab04": only the tests whose names contain one of the
# words (developers).
select     = $(if $(T),$(foreach x,$(1),$(if $(strip $(foreach t,$(T),$(findstring $(t),$(x)))),$(x))),$(1))
LANE_1    := $(call select,$(LANE_1))
LANE_2    := $(call select,$(LANE_2))

.PHONY: test test-locked
# One make test at a time: two would share (and reset) the test trees.
test:
	@mkdir -p $(BUILD)
	@flock -n -E 99 $(BUILD)/.test-lock $(MAKE) --no-print-directory test-locked; rc=$$?; \
	[ $$rc -ne 99 ] || echo "test: another make test is running in this folder (lock: $(BUILD)/.test-lock)"; \
	exit $$rc

# Every worktree the lanes use is made here, one after the other: on a fresh
# machine, three 1.5 GB checkouts at once beside a kernel build can take a
# lane's first skeleton check past its timeout.
TEST_WORKTREES := $(TEST_TREE) $(BUILD)/test2/linux $(BUILD)/test/gen

test-locked: course-refs $(GUEST_TOOLS)
	@for t in $(TEST_WORKTREES); do sh common/worktree.sh $(KSRC) $$t base || exit 1; done
	@$(MAKE) --no-print-directory -s kernel initramfs $(TEST_VARS) LOGS=$(BUILD)/test/logs
	@[ -d $(BUILD)/test2/linux/obj ] || sh common/clone-obj.sh $(TEST_TREE) $(BUILD)/test2/linux || \
		echo "test: lane 2 builds its kernel from scratch (clone-obj.sh failed)"
	@echo "test: $(words $(LANE_1) $(LANE_2)) tests in two lanes (logs: $(LOGS)/selftest/)"
	@rm -f $(LOGS)/selftest/*.counts $(LOGS)/selftest/times.tsv $(LOGS)/selftest/failures
	@export $(TEST_VARS) BZIMAGE=$(TEST_OBJ)/arch/x86/boot/bzImage INITRAMFS=$(BUILD)/test/initramfs.cpio \
		MAKE_VARS="$(TEST_VARS)" KCONFIG="$(COURSE_KCONFIG)" QEMU="$(QEMU)" LOGS=$(LOGS) \
		TEST_TREE=$(TEST_TREE) TEST_OBJ=$(TEST_OBJ) GEN_TREE=$(BUILD)/test/gen $(GUEST_ENV); \
	(export $(LANE_2_VARS); sh common/selftest.sh --lane 2 $(LOGS)/selftest $(LANE_2)) & \
	sh common/selftest.sh --lane 1 $(LOGS)/selftest $(LANE_1); \
	wait
	@[ ! -s $(LOGS)/selftest/failures ] || { echo "test: what failed, again:"; cat $(LOGS)/selftest/failures; }
	@cat $(LOGS)/selftest/1.counts $(LOGS)/selftest/2.counts 2>/dev/null | \
		awk '{ p += $$1; f += $$2 } END { printf "%d passed, %d failed\n", p, f; exit f > 0 }'
