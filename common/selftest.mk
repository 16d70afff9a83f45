# make test: the course's self-test.  It works on a worktree of its own
# (build/test), never on the student's tree or the grading worktree:
#  1. the foundation (common/selftest/*.sh) on the base kernel;
#  2. for every lab (common/labtest/*.sh): skeletons up to date, solution at
#     full marks and style-clean, skeleton below, each planted bug caught,
#     every test able to fail; and the hand-in round trip, on the first lab.

TEST_TREE := $(BUILD)/test/linux
TEST_OBJ  := $(BUILD)/test/obj
TEST_VARS := KSRC=$(TEST_TREE) KOBJ=$(TEST_OBJ) INITRAMFS=$(BUILD)/test/initramfs.cpio
SELFTESTS := $(sort $(wildcard common/selftest/*.sh))
# The hand-in round trip is lab-independent mechanism: one lab proves it.
LABTESTS  := $(foreach d,$(LABS),$(foreach t,skels solution skeleton planted,common/labtest/$(t).sh@$(d))) \
	common/labtest/handin.sh@$(firstword $(LABS))
# make test T=lab03: only the tests whose name contains "lab03" (developers).
select     = $(if $(T),$(foreach x,$(1),$(if $(findstring $(T),$(x)),$(x))),$(1))
SELFTESTS := $(call select,$(SELFTESTS))
LABTESTS  := $(call select,$(LABTESTS))

.PHONY: test
test: course-refs $(GUEST_TOOLS)
	@sh common/worktree.sh $(KSRC) $(TEST_TREE) base
	@$(MAKE) --no-print-directory -s kernel initramfs $(TEST_VARS) LOGS=$(BUILD)/test/logs
	@echo "test: $(words $(SELFTESTS) $(LABTESTS)) tests (logs: $(LOGS)/selftest/)"
	@$(TEST_VARS) BZIMAGE=$(TEST_OBJ)/arch/x86/boot/bzImage INITRAMFS=$(BUILD)/test/initramfs.cpio \
		MAKE_VARS="$(TEST_VARS)" KCONFIG="$(COURSE_KCONFIG)" QEMU="$(QEMU)" LOGS=$(LOGS) \
		TEST_TREE=$(TEST_TREE) TEST_OBJ=$(TEST_OBJ) GEN_TREE=$(GEN_TREE) \
		$(GUEST_ENV) sh common/selftest.sh $(LOGS)/selftest $(SELFTESTS) $(LABTESTS)
