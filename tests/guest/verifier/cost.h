/* SPDX-License-Identifier: MIT */
/* What cost.bpf.c and cost.c share */
#ifndef COST_H
#define COST_H

#define COST_UD 0xc057000000000000ULL	/* user_data of the CQEs posted */
#define COST_UNROLLED 250		/* CQEs of emit_unrolled */

#endif
