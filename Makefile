# kernel-hooks teaching lab: four 2005 kernel proposals, ported to Linux 6.1.
# Students: make run | debug + gdb | tmux.  Everyone: make test.  make help.
#
# The kernel tree lives in build/linux (a git repository, tag 'base'); it is
# built out of tree into build/obj so that the tree holds only sources.  Other
# trees (grading, self-test) keep the same shape, TREE/linux and TREE/obj, so
# that ccache can share objects between them.

BUILD     := build
KSRC      := $(BUILD)/linux
KOBJ      := $(BUILD)/obj
LOGS      := $(BUILD)/logs
BZIMAGE   := $(KOBJ)/arch/x86/boot/bzImage
VMLINUX   := $(KOBJ)/vmlinux
INITRAMFS := $(BUILD)/initramfs.cpio
# The course's layers; make run/debug add those of the lab the tree is on.
COURSE_KCONFIG := common/kconfig/base.config common/kconfig/debug.config
KCONFIG   := $(COURSE_KCONFIG)
# Configurations once made, by what they are made from (common/kconfig.sh)
export KCONFIG_CACHE ?= $(abspath $(BUILD))/kconfig-cache
# Who holds a tree's lock, as a waiting command reports it (common/lock.sh)
export COURSE_COMMAND := make $(or $(MAKECMDGOALS),all) in $(CURDIR)
# One gdbstub port per user, so that several students can share a machine.
GDB_PORT  ?= $(shell echo $$((10000 + $$(id -u) % 50000)))

include common/lab.mk
include common/common.mk
# A student release (make dist, common/dist.sh) has no self-test, and no
# bench until every lab is released: both run the solutions.
-include common/selftest.mk common/bench.mk
ifneq ($(wildcard .course-release),)
ifeq ($(wildcard common/selftest.mk),)
test:
	@echo "make test: the course's self-test grades the solutions; this release (labs $$(cat .course-release)) has none: make check-labN grades yours"; exit 2
endif
ifeq ($(wildcard common/bench.mk),)
bench:
	@echo "make bench: it measures every lab's solution; this release (labs $$(cat .course-release)) comes without it"; exit 2
endif
endif
