// SPDX-License-Identifier: MIT
/*
 * orcwc FILE...: for each FILE, the lines and bytes of its first 4 KiB,
 * each file opened, read, looked at and closed by its own in-kernel
 * coroutine (orcwc.bpf.c), all of them started with one submit. Walked
 * through in docs/tutorial.md.
 */
#include <iocoro.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "orcwc.h"
#include "orcwc.skel.h"

struct orcwc {
	struct iocoro co;
	int have_ring;
	struct orcwc_bpf *skel;
	int prog;
};

static int setup(struct orcwc *w)
{
	int ret;

	ret = iocoro_queue_init(ORCWC_MAX, &w->co, 0);
	if (ret < 0)
		return ret;
	w->have_ring = 1;
	w->skel = orcwc_bpf__open();
	if (!w->skel)
		return -ENOMEM;
	ret = iocoro_object_prepare(w->skel->obj, NULL);
	if (ret < 0)
		return ret;
	ret = orcwc_bpf__load(w->skel);
	if (ret < 0)
		return ret;
	ret = iocoro_attach_object(&w->co, w->skel->obj);
	if (ret < 0)
		return ret;
	w->prog = iocoro_prog_index(w->skel->obj, w->skel->progs.orcwc);
	return w->prog < 0 ? w->prog : 0;
}

/* one coroutine per file, queued, then one io_uring_submit() for all */
static int start_all(struct orcwc *w, char **files, int n, char *bufs)
{
	struct io_uring_sqe *sqe;
	int i, ret;

	for (i = 0; i < n; i++) {
		struct orcwc_state st = {
			.step = ORCWC_OPEN,
			.path = (uintptr_t)files[i],
			.buf = (uintptr_t)(bufs + (size_t)i * ORCWC_BUF),
		};
		__u32 id = (__u32)i;

		ret = bpf_map__update_elem(w->skel->maps.orcwc_states, &id,
					   sizeof(id), &st, sizeof(st), 0);
		if (ret < 0)
			return ret;
		sqe = io_uring_get_sqe(&w->co.ring);
		if (!sqe)
			return -EBUSY;
		iocoro_prep_start(sqe, (unsigned int)w->prog, id);
	}
	ret = io_uring_submit(&w->co.ring);
	return ret < 0 ? ret : 0;
}

/* wait for every coroutine's end; *res[id] is its result */
static int wait_all(struct orcwc *w, int n, int *res)
{
	struct iocoro_done done;
	int i, ret;

	for (i = 0; i < n; i++) {
		ret = iocoro_wait(&w->co, &done, NULL);
		if (ret < 0)
			return ret;
		res[done.id] = done.res;
	}
	return 0;
}

static int report(struct orcwc *w, char **files, int n, const int *res)
{
	struct orcwc_state st;
	int i, bad = 0;

	for (i = 0; i < n; i++) {
		if (res[i] < 0) {
			fprintf(stderr, "orcwc: %s: %s\n", files[i],
				iocoro_strerror(res[i]));
			bad = 1;
			continue;
		}
		if (iocoro_state_read(w->skel->maps.orcwc_states, (uint32_t)i,
				      &st, sizeof(st)) < 0)
			return 1;
		printf("%u %d %s\n", st.lines, res[i], files[i]);
	}
	return bad;
}

int main(int argc, char **argv)
{
	struct orcwc w = { 0 };
	int n = argc - 1, ret, rc = 1;
	char *bufs = NULL;
	int *res = NULL;

	if (n < 1 || n > ORCWC_MAX) {
		fprintf(stderr, "usage: orcwc FILE... (1 to %d files)\n",
			ORCWC_MAX);
		return 2;
	}
	bufs = malloc((size_t)n * ORCWC_BUF);
	res = calloc((size_t)n, sizeof(*res));
	if (!bufs || !res) {
		ret = -ENOMEM;
		goto err;
	}
	ret = setup(&w);
	if (ret < 0)
		goto err;
	ret = start_all(&w, argv + 1, n, bufs);
	if (ret < 0)
		goto err;
	ret = wait_all(&w, n, res);
	if (ret < 0)
		goto err;
	rc = report(&w, argv + 1, n, res);
	goto out;
err:
	fprintf(stderr, "orcwc: %s\n", iocoro_strerror(ret));
out:
	orcwc_bpf__destroy(w.skel);
	if (w.have_ring)
		iocoro_queue_exit(&w.co);
	free(bufs);
	free(res);
	return rc;
}
