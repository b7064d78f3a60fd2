// SPDX-License-Identifier: MIT
/*
 * The BPF build pipeline (cmake/bpf.cmake: clang -target bpf, bpftool gen
 * skeleton) gives a skeleton that libbpf can open. Open only: loading needs
 * a kernel and privileges, which the host unit tests do not assume.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "skel_smoke.skel.h"

static void test_open(void **state)
{
	struct skel_smoke_bpf *skel;

	(void)state;
	skel = skel_smoke_bpf__open();
	assert_non_null(skel);

	assert_non_null(skel->progs.smoke_prog);
	assert_string_equal(bpf_program__name(skel->progs.smoke_prog), "smoke_prog");
	assert_int_equal(bpf_program__type(skel->progs.smoke_prog), BPF_PROG_TYPE_SOCKET_FILTER);

	assert_non_null(skel->maps.smoke_count);
	assert_int_equal(bpf_map__type(skel->maps.smoke_count), BPF_MAP_TYPE_ARRAY);
	assert_int_equal(bpf_map__max_entries(skel->maps.smoke_count), 1);
	assert_int_equal(bpf_map__value_size(skel->maps.smoke_count), sizeof(uint64_t));

	/* .rodata is writable between open and load */
	assert_non_null(skel->rodata);
	assert_int_equal(skel->rodata->smoke_verdict, 0);
	skel->rodata->smoke_verdict = 7;

	skel_smoke_bpf__destroy(skel);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open),
	};

	return cmocka_run_group_tests_name("bpf_skeleton", tests, NULL, NULL);
}
