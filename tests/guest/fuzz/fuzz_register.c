// SPDX-License-Identifier: MIT
/*
 * The fuzzer's io_uring_register() calls (fuzz_int.h): random ones with
 * the BPF opcodes 128..130, their neighbours and the opcodes 31..127 left
 * to later kernels, judged by the ABI rules fuzz_test.c lists; a valid
 * IORING_ATTACH_BPF of the programs with a random budget; random ring
 * restrictions.
 */
#include "fuzz_int.h"

#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* register opcodes 31..127 are left to later kernels */
#define FZ_REG_HOLE_FIRST (IORING_REGISTER_CLONE_BUFFERS + 1)
#define FZ_REG_HOLE_LAST (IORING_REGISTER_BPF_FIRST - 1)

/* an io_uring_register() fd argument: the ring mostly */
static int fz_reg_fd(void)
{
	switch (below(8)) {
	case 0:
		return closed_fd();
	case 1:
		return pool[below(pool_nr)];
	case 2:
		return prog_fd;
	case 3:
		return -1;
	default:
		return ring_fd_now;
	}
}

/* a fd for an IORING_ATTACH_BPF array */
static int fz_attach_fd(void)
{
	switch (below(10)) {
	case 0:
	case 1:
		return -1;
	case 2:
		return prog_other_fd;
	case 3:
		return map_fd;
	case 4:
		return closed_fd();
	case 5:
		return pool[below(pool_nr)];
	case 6:
		return (int)rnd();
	case 7:
		return prog_s_fd;
	default:
		return prog_fd;
	}
}

long sys_register(int fd, unsigned int op, const void *arg, unsigned int nr)
{
	long ret = syscall(__NR_io_uring_register, fd, op, arg, nr);

	return ret < 0 ? -errno : ret;
}

void fz_register(void)
{
	static const unsigned int ops[] = {
		IORING_ATTACH_BPF, IORING_DETACH_BPF, IORING_REGISTER_BPF_BUDGET,
	};
	unsigned int op, bare, nr;
	int fd = fz_reg_fd();
	const void *arg;
	long ret;

	switch (below(12)) {
	case 0:
	case 1:
		/* left to later kernels, their neighbours mostly */
		if (one_in(2))
			op = FZ_REG_HOLE_FIRST +
			     below(FZ_REG_HOLE_LAST - FZ_REG_HOLE_FIRST + 1);
		else
			op = one_in(2) ? FZ_REG_HOLE_FIRST + below(3) :
					 FZ_REG_HOLE_LAST - below(3);
		break;
	case 2:
		/* past the last */
		op = IORING_REGISTER_LAST +
		     (one_in(2) ? below(4) : below(0x7fffff00));
		break;
	case 3:
		op = ops[below(3)] | IORING_REGISTER_USE_REGISTERED_RING;
		break;
	case 4:
		op = FZ_REG_HOLE_FIRST +
		     below(FZ_REG_HOLE_LAST - FZ_REG_HOLE_FIRST + 1);
		op |= IORING_REGISTER_USE_REGISTERED_RING;
		break;
	default:
		op = ops[below(3)];
	}
	bare = op & ~IORING_REGISTER_USE_REGISTERED_RING;
	switch (below(8)) {
	case 0:
		nr = 0;
		break;
	case 1:
		nr = IORING_BPF_MAX_PROGS + below(2);
		break;
	case 2:
		nr = rnd();
		break;
	case 3:
		nr = IORING_BPF_MAX_BUDGET + below(2);
		break;
	default:
		nr = 1 + below(IORING_BPF_MAX_PROGS);
	}
	if (one_in(3)) {
		arg = (const void *)(uintptr_t)fz_ptr();
	} else if (one_in(8)) {
		arg = NULL;
	} else {
		/* an fd array at the end of scratch: reads past it fault */
		int *fds = (int *)(scratch + SCRATCH_SIZE) - 65;
		unsigned int i;

		for (i = 0; i < 65; i++)
			fds[i] = fz_attach_fd();
		arg = fds + below(2);
		hash(fds, 65 * sizeof(int));
	}
	hash_u64(op);
	hash_u64(nr);
	hash_u64((uintptr_t)arg);

	ret = sys_register(fd, op, arg, nr);
	st.registers++;
	check_ret("io_uring_register", ret);
	if ((bare >= FZ_REG_HOLE_FIRST && bare <= FZ_REG_HOLE_LAST) ||
	    bare >= IORING_REGISTER_LAST) {
		if (ret != -EINVAL)
			FAIL("iteration %lu: io_uring_register opcode %u "
			     "(0x%x) on fd %d: %ld, want -EINVAL", cur_iter,
			     bare, op, fd, ret);
		return;
	}
	if (fd != ring_fd_now || ret < 0)
		return;
	if (op == IORING_ATTACH_BPF && (!nr || nr > IORING_BPF_MAX_PROGS))
		FAIL("IORING_ATTACH_BPF with nr_args %u: %ld, want an error",
		     nr, ret);
	if (op == IORING_DETACH_BPF && (arg || nr))
		FAIL("IORING_DETACH_BPF with arg %p, nr_args %u: %ld, want "
		     "-EINVAL", arg, nr, ret);
	if (op == IORING_REGISTER_BPF_BUDGET &&
	    (!nr || nr > IORING_BPF_MAX_BUDGET))
		FAIL("IORING_REGISTER_BPF_BUDGET %u: %ld, want -EINVAL", nr,
		     ret);
	if (op == IORING_ATTACH_BPF) {
		const int *fds = arg;
		unsigned int i;

		st.attach_ok++;
		ring_attached = true;
		nr_progs = nr;
		for (i = 0; i < nr; i++)
			prog_hole[i] = fds[i] == -1;
	}
	if (op == IORING_DETACH_BPF)
		nr_progs = 0;
}

/* a valid table: the programs, with holes */
void fz_good_attach(void)
{
	int fds[8];
	unsigned int i, nr = 1 + below(ARRAY_SIZE(fds));
	long ret;

	for (i = 0; i < nr; i++) {
		switch (below(6)) {
		case 0:
			fds[i] = -1;
			break;
		case 1:
			fds[i] = prog_s_fd;
			break;
		default:
			fds[i] = prog_fd;
		}
	}
	hash(fds, nr * sizeof(int));
	ret = sys_register(ring_fd_now, IORING_ATTACH_BPF, fds, nr);
	check_ret("IORING_ATTACH_BPF", ret);
	if (!ret) {
		st.attach_ok++;
		ring_attached = true;
		nr_progs = nr;
		for (i = 0; i < nr; i++)
			prog_hole[i] = fds[i] == -1;
	}
	/* the default budget (4096) lets chains run long: mostly less */
	if (!one_in(8)) {
		unsigned int budget;

		if (one_in(4))
			budget = 1 + below(4);
		else if (one_in(16))
			budget = 1 + below(IORING_BPF_DEFAULT_BUDGET);
		else
			budget = 1 + below(64);

		hash_u64(budget);
		check_ret("IORING_REGISTER_BPF_BUDGET",
			  sys_register(ring_fd_now, IORING_REGISTER_BPF_BUDGET,
				       NULL, budget));
	}
}

void fz_restrict(void)
{
	struct io_uring_restriction res[8];
	unsigned int i, nr = 1 + below(ARRAY_SIZE(res));

	memset(res, 0, sizeof(res));
	for (i = 0; i < nr; i++) {
		res[i].opcode = one_in(8) ? rnd() : below(4);
		switch (res[i].opcode) {
		case IORING_RESTRICTION_REGISTER_OP:
			res[i].register_op = one_in(2) ?
				IORING_REGISTER_BPF_FIRST + below(3) : rnd();
			break;
		case IORING_RESTRICTION_SQE_OP:
			res[i].sqe_op = !one_in(4) ? IORING_OP_BPF : rnd();
			break;
		default:
			res[i].sqe_flags = rnd();
		}
	}
	hash(res, nr * sizeof(res[0]));
	check_ret("IORING_REGISTER_RESTRICTIONS",
		  sys_register(ring_fd_now, IORING_REGISTER_RESTRICTIONS, res,
			       nr));
}
