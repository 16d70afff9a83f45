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
# One gdbstub port per user, so that several students can share a machine.
GDB_PORT  ?= $(shell echo $$((10000 + $$(id -u) % 50000)))

include common/lab.mk
include common/common.mk
include common/selftest.mk
include common/bench.mk
