// SPDX-License-Identifier: GPL-2.0
/*
 * tsc_khz - this machine's TSC rate in kHz, measured over 200 ms
 *
 * Under TCG a guest's TSC is the host's, but no PIT or HPET lets a course
 * kernel calibrate it, and the kernel falls back to jiffies (4 ms steps).
 * common/qemu.sh tells the guest the rate (tsc_early_khz=) instead.  Runs on
 * the host; prints nothing and fails on a CPU without an invariant TSC.
 */
#include <cpuid.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static long long ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/*
 * A TSC reading and the time it was taken, from a pair of clock readings
 * at most 20 us apart around it: a loaded host may preempt this program
 * between two readings, which would skew a 200 ms measurement by as much.
 */
static void sample(unsigned long long *tsc, long long *when)
{
	long long before, after;
	int i;

	for (i = 0; i < 1000; i++) {
		before = ns();
		*tsc = __rdtsc();
		after = ns();
		if (after - before < 20000)
			break;
	}
	*when = before + (after - before) / 2;
}

int main(void)
{
	unsigned int a, b, c, d;
	unsigned long long t0, t1;
	long long start, now;

	/* CPUID 0x80000007 EDX bit 8: the TSC ticks at one rate in every state */
	if (!__get_cpuid(0x80000007, &a, &b, &c, &d) || !(d & (1u << 8))) {
		fprintf(stderr, "tsc_khz: this CPU's TSC is not invariant\n");
		return 1;
	}
	sample(&t0, &start);
	do
		now = ns();
	while (now - start < 200000000);
	sample(&t1, &now);
	printf("%llu\n", (t1 - t0) * 1000000ULL / (unsigned long long)(now - start));
	return 0;
}
