/* SPDX-License-Identifier: MIT */
/*
 * The ring of the user-space io_uring peers (uring_cc, uring_cat,
 * uring_cp, bench/btree's uring_btree): set up with the flags
 * iocoro_queue_init() gives every iocoro ring (IOCORO_SETUP_FLAGS in
 * iocoro.h), so that a ratio compares where the decisions are made, not
 * two ring setups.
 */
#ifndef IOCORO_BENCH_PEER_RING_H
#define IOCORO_BENCH_PEER_RING_H

#include <liburing.h>

#define PEER_RING_FLAGS (IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN)

/* @flags: more setup flags (SINGLE_ISSUER | DEFER_TASKRUN for a variant) */
static inline int peer_queue_init(unsigned int entries, struct io_uring *ring,
				  unsigned int flags)
{
	return io_uring_queue_init(entries, ring, PEER_RING_FLAGS | flags);
}

#endif /* IOCORO_BENCH_PEER_RING_H */
