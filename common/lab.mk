# The labs.  Each labNN-name/ folder is one: its lesson (README.md), graded
# tests (tests.conf, tests/), kconfig layer and the skeleton generated from
# solutions/labNN-name/.  Nothing here names a lab: a new lab is a new folder.

LABS        := $(sort $(wildcard lab[0-9][0-9]-*))
lab_num      = $(patsubst 0%,%,$(patsubst lab%,%,$(firstword $(subst -, ,$(1)))))
GRADE_TREE  := $(BUILD)/grade/linux
GRADE_OBJ   := $(BUILD)/grade/obj
# a mutant run's timeout (s): the slowest lab's solution takes 70
MUTANT_BUDGET ?= 300
GEN_TREE    := $(BUILD)/gen
GUEST_TOOLS := $(BUILD)/tools/gen_init_cpio $(BUILD)/guest/init $(BUILD)/guest/run-tests
GUEST_ENV    = GEN_INIT_CPIO=$(BUILD)/tools/gen_init_cpio GUEST_INIT=$(BUILD)/guest/init \
	RUN_TESTS=$(BUILD)/guest/run-tests
# The lab the student's tree is on: the nearest labN-start tag below HEAD.
CURRENT_LAB := $(shell git -C $(KSRC) describe --tags --abbrev=0 --match 'lab*-start' 2>/dev/null | \
	sed -n 's/^lab\([0-9]*\)-start$$/\1/p')

.PHONY: skels course-refs check kill-matrix dist
# A student repository with the labs released so far (common/dist.sh).
dist:
	@test -n "$(DEST)" || { echo "dist: say where: make dist DEST=dir RELEASED=\"lab01 lab02\""; exit 2; }
	@sh common/dist.sh $(DEST) $(RELEASED)

# Each lab's kill matrix (planted bug x graded test, in LAB/instructors.md), from the
# planted runs of the last make test (build/logs/labtest).
kill-matrix:
	@for d in $(LABS); do python3 common/kill_matrix.py write $$d $(LOGS)/labtest || exit 1; done
	@echo "kill-matrix: written into $(addsuffix /instructors.md,$(LABS)) from $(LOGS)/labtest"

# skel.sh works in one index ($(GEN_TREE)): two makes at once (a student's
# check-lab in one terminal, lab in another) would collide on its lock.
SKEL := flock $(BUILD)/.skel-lock sh common/skel.sh

# Regenerate every lab's skeleton.patch and skeleton/ from solutions/.
skels: | tree
	@$(SKEL) $(KSRC) $(GEN_TREE) . $(LABS)
	@echo "skels: regenerated $(LABS)"

# refs/course/LAB/{base,solution,skeleton} for all labs (a few seconds).
course-refs: | tree
	@$(SKEL) $(KSRC) $(GEN_TREE) $(BUILD)/gen-out $(LABS) >/dev/null

# One set of rules per lab.  $(1): folder, $(2): number.
define lab_rules
LAB_DIR_$(2) := $(1)
LAB_UPTO_$(2) := $$(LAB_UPTO) $(1)
LAB_UPTO := $$(LAB_UPTO_$(2))
LAB_KCONFIG_$(2) := $$(KCONFIG) $$(wildcard $$(addsuffix /kconfig,$$(LAB_UPTO_$(2))))

.PHONY: lab$(2) check-lab$(2) handin-lab$(2) grade-lab$(2) gdb-lab$(2) similarity-lab$(2) profile-lab$(2) mutants-lab$(2)
lab$(2): course-refs
	@sh common/lab.sh start $(KSRC) $(2) $(1) \
		$$(if $$(OWN),HEAD,refs/course/$(1)/base)

ifeq ($$(HANDIN),)
check-lab$(2): $(GUEST_TOOLS) | tree
	@git -C $(KSRC) rev-parse -q --verify refs/tags/lab$(2)-start >/dev/null || \
		{ echo "check-lab$(2): lab $(2) is not started in $(KSRC): run 'make lab$(2)' first"; exit 1; }
	@echo "check-lab$(2): grading $(KSRC) (logs: $(BUILD)/check/$(1))"
	@$(GUEST_ENV) CHECK_T="$(T)" CHECK_FAILFAST="$(FAILFAST)" sh common/check.sh $(1) $(KSRC) $(KOBJ) $(BUILD)/check/$(1) $$(LAB_KCONFIG_$(2))
else
check-lab$(2): course-refs $(GUEST_TOOLS)
	@echo "check-lab$(2): grading $(HANDIN) on $(GRADE_TREE) (logs: $(BUILD)/grade/$(1))"
	@$(GUEST_ENV) CHECK_T="$(T)" CHECK_FAILFAST="$(FAILFAST)" sh common/grade.sh one $(1) $(KSRC) $(GRADE_TREE) $(GRADE_OBJ) \
		$(BUILD)/grade/$(1) $(HANDIN) $$(LAB_KCONFIG_$(2))
endif

handin-lab$(2): | tree
	@sh common/lab.sh handin $(KSRC) $(2) lab$(2)-start handin/lab$(2).patch refs/course/$(1)/skeleton

grade-lab$(2): course-refs $(GUEST_TOOLS)
	@test -n "$(HANDINS)" || { echo "grade-lab$(2): say which folder: make grade-lab$(2) HANDINS=dir/"; exit 2; }
	@$(GUEST_ENV) CHECK_FAILFAST="$(FAILFAST)" sh common/grade.sh many $(1) $(KSRC) $(GRADE_TREE) $(GRADE_OBJ) \
		$(BUILD)/grade/$(1)-batch $(HANDINS) $$(LAB_KCONFIG_$(2))

# Where a graded run's time goes: the solution graded in the grading
# tree with the host's time of every results line (common/profile.py).
profile-lab$(2): course-refs $(GUEST_TOOLS)
	@echo "profile-lab$(2): grading $(1)'s solution on $(GRADE_TREE), timed (log: $(BUILD)/profile/$(1).log)"
	@mkdir -p $(BUILD)/profile
	@$(GUEST_ENV) CHECK_PROFILE=1 GRADE_REF=refs/course/$(1)/solution sh common/grade.sh one $(1) $(KSRC) \
		$(GRADE_TREE) $(GRADE_OBJ) $(BUILD)/profile/$(1) - $$(LAB_KCONFIG_$(2)) >$(BUILD)/profile/$(1).log 2>&1 || \
		{ tail -n 20 $(BUILD)/profile/$(1).log; echo "profile-lab$(2): the solution did not score full marks (log: $(BUILD)/profile/$(1).log)"; exit 1; }
	@python3 common/profile.py $(1) $(BUILD)/profile/$(1)

# The lab's tests measured by mutants of its code (common/mutants.py):
# each graded in the grading lanes, stopping at its first failing test,
# within MUTANT_BUDGET seconds.  SAMPLE=N: all of the student-written
# regions' mutants and N of the rest (SEED=S).
mutants-lab$(2): course-refs $(GUEST_TOOLS)
	@python3 common/mutants.py make $(1) $(KSRC) $(BUILD)/mutants/$(1) $(if $(SAMPLE),--sample $(SAMPLE) --seed $(or $(SEED),1))
	@$(GUEST_ENV) CHECK_FAILFAST=1 CHECK_BUDGET=$(MUTANT_BUDGET) GRADE_REF=refs/course/$(1)/solution \
		sh common/grade.sh many $(1) $(KSRC) $(GRADE_TREE) $(GRADE_OBJ) $(BUILD)/mutants/$(1)/grades \
		$(BUILD)/mutants/$(1)/patches $$(LAB_KCONFIG_$(2)); rc=$$$$?; \
	python3 common/mutants.py report $(1) $(BUILD)/mutants/$(1) $(1)/mutants-equivalent.txt; \
	[ $$$$rc -ne 3 ] || echo "mutants-lab$(2): some mutants were not graded: run it again"; exit $$$$rc

# Pairs of hand-ins that look copied, ranked (common/similarity.sh).
similarity-lab$(2): course-refs
	@test -n "$(HANDINS)" || { echo "similarity-lab$(2): say which folder: make similarity-lab$(2) HANDINS=dir/"; exit 2; }
	@sh common/similarity.sh $(1) $(KSRC) $(HANDINS) $(BUILD)/grade/$(1)-similarity.txt
	@echo "similarity-lab$(2): $(BUILD)/grade/$(1)-similarity.txt"

# The lesson's guided gdb session ($(1)/session.gdb), run on your kernel.
gdb-lab$(2): | tree
	@[ "$(CURRENT_LAB)" = $(2) ] || \
		{ echo "gdb-lab$(2): your tree is on lab $(or $(CURRENT_LAB),none yet): run 'make lab$(2)' first"; exit 2; }
	@$(MAKE) --no-print-directory -s kernel initramfs
	@LESSON_CHECK=0 sh common/gdb-session.sh $(1) $(KOBJ) $(INITRAMFS) $(LOGS)/gdb-lab$(2).txt && \
		echo "gdb-lab$(2): transcript in $(LOGS)/gdb-lab$(2).txt; compare it with the lesson's"

check: check-lab$(2)
endef
$(foreach d,$(LABS),$(eval $(call lab_rules,$(d),$(call lab_num,$(d)))))

# make run/debug use the kconfig layers of the lab the tree is on.
ifneq ($(CURRENT_LAB),)
KCONFIG := $(LAB_KCONFIG_$(CURRENT_LAB))
endif

# A lab number that has no folder (yet).
lab% check-lab% handin-lab% grade-lab% gdb-lab% profile-lab% mutants-lab%:
	@echo "there is no lab $* here; the labs are: $(LABS)"; exit 2
