# make bench: what the labs' hooks cost, in guest instructions counted by
# QEMU (two boots each, which must agree) and on the wall clock, on a
# kernel with every lab's solution (common/bench/bench.c) and on the tag
# base; and the course's own speed.  Not part of make test, which runs it
# once, short, to prove it.  The kernels are built without the debug
# layer: KASAN and lockdep would dwarf what is measured.

BENCH_TREE := $(BUILD)/bench
BENCH_REF   = refs/course/$(lastword $(LABS))/solution

.PHONY: bench
bench: course-refs $(GUEST_TOOLS)
	@$(GUEST_ENV) QEMU="$(QEMU)" LOGS=$(LOGS) sh common/bench.sh full $(KSRC) $(BENCH_TREE) \
		$(BENCH_TREE)/out $(BENCH_REF) common/kconfig/base.config \
		$(wildcard $(addsuffix /kconfig,$(LABS)))
