// SPDX-License-Identifier: MIT
/*
 * orcwc FILE...: for each FILE, the lines and bytes of its first 4 KiB,
 * each file opened, read, looked at and closed by its own in-kernel
 * coroutine (orcwc.bpf.c), all of them started with one submit, their
 * states written and read in place (a mapped map). Walked through in
 * docs/tutorial.md.
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
	unsigned int kind;	/* of the step on the ring */
	struct orcwc_state *st;	/* orcwc_states, mmap()ed: st[id] */
	size_t st_len;
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
	ret = iocoro_skel_load(&w->co, w->skel->skeleton, NULL);
	if (ret < 0)
		return ret;
	ret = iocoro_prog_index(w->skel->obj, w->skel->progs.orcwc);
	if (ret < 0)
		return ret;
	w->kind = (unsigned int)ret;
	return iocoro_map_mmap(w->skel->maps.orcwc_states, (void **)&w->st,
			       &w->st_len);
}

/* one coroutine per file, its state written in place, one submit */
static int start_all(struct orcwc *w, char **files, int n, char *bufs)
{
	uint32_t ids[ORCWC_MAX];
	int i, ret;

	for (i = 0; i < n; i++) {
		w->st[i] = (struct orcwc_state){
			.step = ORCWC_OPEN,
			.path = (uintptr_t)files[i],
			.buf = (uintptr_t)(bufs + (size_t)i * ORCWC_BUF),
		};
		ids[i] = (uint32_t)i;
	}
	ret = iocoro_start_many(&w->co, w->kind, ids,
				(unsigned int)n);
	if (ret < 0)
		return ret;
	return ret == n ? 0 : -EBUSY;
}

/* wait for every coroutine's end; res[id] is its result */
static int wait_all(struct orcwc *w, int n, int *res)
{
	struct iocoro_done done[ORCWC_MAX];
	int i, ret;

	while (n > 0) {
		ret = iocoro_wait_many(&w->co, done, ORCWC_MAX, NULL);
		if (ret < 0)
			return ret;
		for (i = 0; i < ret; i++)
			res[done[i].id] = done[i].res;
		n -= ret;
	}
	return 0;
}

static int report(struct orcwc *w, char **files, int n, const int *res)
{
	int i, bad = 0;

	for (i = 0; i < n; i++) {
		if (res[i] < 0) {
			fprintf(stderr, "orcwc: %s: %s\n", files[i],
				iocoro_strerror(res[i]));
			bad = 1;
			continue;
		}
		/* what the coroutine left in its state, read in place */
		printf("%u %d %s\n", w->st[i].lines, res[i], files[i]);
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
	iocoro_map_munmap(w.st, w.st_len);
	orcwc_bpf__destroy(w.skel);
	if (w.have_ring)
		iocoro_queue_exit(&w.co);
	free(bufs);
	free(res);
	return rc;
}
