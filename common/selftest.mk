# make test: the foundation self-tests (common/selftest/*.sh), run on the
# host against the course kernel; each boots QEMU as it needs.

SELFTESTS := $(sort $(wildcard common/selftest/*.sh))

.PHONY: test
test: kernel initramfs
	@echo "test: $(words $(SELFTESTS)) foundation tests (logs: $(LOGS)/selftest/)"
	@KSRC=$(KSRC) KOBJ=$(KOBJ) BZIMAGE=$(BZIMAGE) INITRAMFS=$(INITRAMFS) \
		KCONFIG="$(KCONFIG)" QEMU="$(QEMU)" \
		sh common/selftest.sh $(LOGS)/selftest $(SELFTESTS)
