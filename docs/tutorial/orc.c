// SPDX-License-Identifier: MIT
/*
 * orc FILE: print the first 4 KiB of FILE, opened, read and closed by one
 * in-kernel coroutine (orc.bpf.c). Walked through in docs/tutorial.md.
 */
#include <iocoro.h>

#include <stdint.h>
#include <stdio.h>

#include "orc.h"
#include "orc.skel.h"

int main(int argc, char **argv)
{
	struct orc_state st = { .step = ORC_OPEN };
	struct orc_bpf *skel = NULL;
	struct iocoro_done done;
	struct iocoro co;
	char buf[4096];
	unsigned int kind;
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: orc FILE\n");
		return 2;
	}

	/* 1. a ring that can run coroutines */
	ret = iocoro_queue_init(8, &co, 0);
	if (ret < 0) {
		fprintf(stderr, "orc: %s\n", iocoro_strerror(ret));
		return 1;
	}

	/* 2. the step: loaded, and attached to the ring as a kind */
	skel = orc_bpf__open();
	if (!skel) {
		fprintf(stderr, "orc: cannot open the BPF object\n");
		goto fail;
	}
	/* (a program the verifier refuses gets its log printed to stderr) */
	ret = iocoro_skel_load(&co, skel->skeleton, NULL);
	if (ret < 0)
		goto err;

	/* 3. the kind the step got on the ring */
	ret = iocoro_prog_index(skel->obj, skel->progs.orc);
	if (ret < 0)
		goto err;
	kind = (unsigned int)ret;

	/* 4. start coroutine 0 with its state, and wait for its end */
	st.path = (uintptr_t)argv[1];
	st.buf = (uintptr_t)buf;
	st.len = sizeof(buf);
	ret = iocoro_start_state(&co, kind, 0,
				 skel->maps.orc_states, &st, sizeof(st));
	if (ret < 0)
		goto err;
	ret = iocoro_wait(&co, &done, NULL);
	if (ret < 0)
		goto err;
	if (done.res < 0) {
		fprintf(stderr, "orc: %s: %s\n", argv[1],
			iocoro_strerror(done.res));
		goto fail;
	}

	fwrite(buf, 1, (size_t)done.res, stdout);
	orc_bpf__destroy(skel);
	iocoro_queue_exit(&co);
	return 0;

err:
	fprintf(stderr, "orc: %s\n", iocoro_strerror(ret));
fail:
	orc_bpf__destroy(skel);
	iocoro_queue_exit(&co);
	return 1;
}
