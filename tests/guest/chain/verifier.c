// SPDX-License-Identifier: MIT
/*
 * What the verifier allows an io_coro_ops step: its context (the array
 * of its one argument, and the struct io_coro_step it points to) and its
 * calls. Raw instructions, loaded as the step of struct io_coro_ops; the
 * fields' offsets and sizes come from the kernel's BTF, as a step's CO-RE
 * reads find them.
 */
#include "chain.h"

struct access {
	const char *what;
	int size; /* BPF_B, BPF_H, BPF_W, BPF_DW */
	short off;
};

static int bytes_of(int size)
{
	return size == BPF_DW ? 8 : size == BPF_W ? 4 : size == BPF_H ? 2 : 1;
}

static int size_of(unsigned int bytes)
{
	return bytes == 8 ? BPF_DW : bytes == 4 ? BPF_W : bytes == 2 ? BPF_H :
								   BPF_B;
}

/* a read of @a from the argument array (the program's r1) is refused */
static void reject_arg_read(const struct access *a, int err, const char *msg)
{
	const struct bpf_insn insns[] = {
		LDX(a->size, BPF_REG_0, BPF_REG_1, a->off),
		EXIT(),
	};

	expect_reject(a->what, insns, ARRAY_SIZE(insns), 0, err, msg);
}

/* a read of @a from the struct io_coro_step is refused */
static void reject_step_read(const struct access *a, int err, const char *msg)
{
	const struct bpf_insn insns[] = {
		LOAD_STEP_ARG(),
		LDX(a->size, BPF_REG_0, BPF_REG_1, a->off),
		EXIT(),
	};

	expect_reject(a->what, insns, ARRAY_SIZE(insns), 0, err, msg);
}

/* writes of field @f of the struct io_coro_step (STX, ST) are refused */
static void reject_step_write(struct step_field f, __u32 flags)
{
	const struct bpf_insn stx[] = {
		LOAD_STEP_ARG(),
		MOV64_IMM(BPF_REG_2, 0),
		STX(size_of(f.size), BPF_REG_1, BPF_REG_2, f.off),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};
	const struct bpf_insn st[] = {
		LOAD_STEP_ARG(),
		ST(size_of(f.size), BPF_REG_1, f.off, 1),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};
	char what[96];

	snprintf(what, sizeof(what), "write of %s (STX)%s", f.name,
		 flags ? ", sleepable" : "");
	expect_reject(what, stx, ARRAY_SIZE(stx), flags, EACCES,
		      "only read is supported");
	snprintf(what, sizeof(what), "write of %s (ST)%s", f.name,
		 flags ? ", sleepable" : "");
	expect_reject(what, st, ARRAY_SIZE(st), flags, EACCES,
		      "only read is supported");
}

static const char *const fields[] = {
	"user_data", "res_user_data", "res", "cqe_flags", "has_res", "kind",
};

/* every forbidden access to the context is refused at load time */
IOCORO_CASE(verifier_ctx)
{
	const struct access arg_reads[] = {
		{ "read of a second argument", BPF_DW, 8 },
		{ "misaligned read of the argument", BPF_DW, 4 },
		{ "negative offset into the arguments", BPF_DW, -8 },
	};
	struct step_field f;
	unsigned int i, end = step_size();
	char msg[160], what[96];

	reject_arg_read(&arg_reads[0], EACCES,
			"func 'step' doesn't have 2-th argument");
	reject_arg_read(&arg_reads[1], EACCES,
			"invalid bpf_context access off=4 size=8");
	reject_arg_read(&arg_reads[2], EACCES,
			"invalid bpf_context access off=-8 size=8");

	/* the argument itself is not written either */
	{
		const struct bpf_insn insns[] = {
			MOV64_IMM(BPF_REG_2, 0),
			STX(BPF_DW, BPF_REG_1, BPF_REG_2, 0),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT(),
		};

		expect_reject("write of the argument", insns,
			      ARRAY_SIZE(insns), 0, EACCES,
			      "invalid bpf_context access off=0 size=8");
	}

	/* reads of the struct io_coro_step across two fields */
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		struct access a;

		f = step_field(fields[i]);
		a.size = BPF_DW;
		a.off = (short)(f.off + f.size - 4);
		snprintf(what, sizeof(what), "8-byte read across the end of %s",
			 f.name);
		a.what = what;
		snprintf(msg, sizeof(msg),
			 "access beyond the end of member %s (mend:%u) in "
			 "struct io_coro_step with off %u size 8",
			 f.name, f.off + f.size, a.off);
		reject_step_read(&a, EACCES, msg);
	}
	/* past its end, far out, before it */
	{
		const struct access a[] = {
			{ "read past the end", BPF_W, (short)end },
			{ "8-byte read past the end", BPF_DW, (short)end },
			{ "read far out", BPF_W, 4096 },
		};

		for (i = 0; i < ARRAY_SIZE(a); i++) {
			snprintf(msg, sizeof(msg),
				 "access beyond struct io_coro_step at off %d "
				 "size %d", a[i].off, bytes_of(a[i].size));
			reject_step_read(&a[i], EACCES, msg);
		}
	}
	{
		const struct access a = { "negative offset", BPF_W, -4 };

		reject_step_read(&a, EACCES,
				 "R1 is ptr_io_coro_step invalid negative "
				 "access: off=-4");
	}

	/* writes of every field, also from a sleepable step */
	for (i = 0; i < ARRAY_SIZE(fields); i++)
		reject_step_write(step_field(fields[i]), 0);
	reject_step_write(step_field("res"), BPF_F_SLEEPABLE);

	/* an atomic add to a field */
	f = step_field("res");
	{
		const struct bpf_insn insns[] = {
			LOAD_STEP_ARG(),
			MOV64_IMM(BPF_REG_2, 1),
			XADD(BPF_W, BPF_REG_1, BPF_REG_2, f.off),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT(),
		};

		expect_reject("atomic add to res", insns, ARRAY_SIZE(insns), 0,
			      EACCES, "only read is supported");
	}
}

/* what the valid reads must see: a start linked after a write */
#define V_UD 0x1112131405060708ULL
#define V_PREV_UD 0x0a0b0c0d01020304ULL
#define V_PREV_RES 777
/* the kind the raw steps run as: not 0, so that reading it tells */
#define V_KIND 5

/* the struct io_coro_step a step of kind V_KIND sees, as bytes */
static void step_image(unsigned char *img, unsigned int size, bool linked)
{
	const struct {
		const char *name;
		__u64 val;
	} vals[] = {
		{ "user_data", V_UD },
		{ "res_user_data", linked ? V_PREV_UD : 0 },
		{ "res", linked ? V_PREV_RES : 0 },
		{ "cqe_flags", 0 },
		{ "has_res", linked },
		{ "kind", V_KIND },
	};
	unsigned int i;

	memset(img, 0, size);
	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		struct step_field f = step_field(vals[i].name);

		CHECK(f.off + f.size <= size);
		/* little endian: the low bytes first */
		memcpy(img + f.off, &vals[i].val, f.size);
	}
}

/* the int a read of @bytes at @off of @img returns */
static int read_as_int(const unsigned char *img, unsigned int off,
		       unsigned int bytes)
{
	__u64 v = 0;

	memcpy(&v, img + off, bytes);
	return (int)(__u32)v;
}

struct valid_run {
	struct iocoro co;
	unsigned char linked[64], alone[64];
	int devnull;
	int fds[V_KIND + 1];
};

/* a step that reads @bytes at @off of its struct io_coro_step and returns it */
static void check_read(struct valid_run *r, const char *name,
		       unsigned int bytes, unsigned int off)
{
	static char wbuf[V_PREV_RES];
	const struct bpf_insn insns[] = {
		LOAD_STEP_ARG(),
		LDX(size_of(bytes), BPF_REG_0, BPF_REG_1, off),
		EXIT(),
	};
	int want = read_as_int(r->linked, off, bytes);
	int want_alone = read_as_int(r->alone, off, bytes);
	struct io_uring *ring = &r->co.ring;
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe *sqe;
	char what[96];
	int res;

	snprintf(what, sizeof(what), "%u-byte read of %s at %u", bytes, name,
		 off);
	r->fds[V_KIND] = expect_load(what, insns, ARRAY_SIZE(insns), 0);
	CHECK_EQ(iocoro_attach(&r->co, r->fds, V_KIND + 1), 0);

	sqe = uring_sqe(ring);
	io_uring_prep_write(sqe, r->devnull, wbuf, V_PREV_RES, 0);
	sqe->flags = IOSQE_IO_HARDLINK;
	sqe->user_data = V_PREV_UD;
	uring_prep_start(ring, V_KIND, V_UD);
	uring_submit(ring, 2);
	uring_reap(ring, cqes, 2);
	EXPECT_CQE(cqes, 2, V_PREV_UD, V_PREV_RES);
	res = uring_find_cqe(cqes, 2, V_UD)->res;
	if (res != want)
		FAIL("%s after a write: res %d (0x%x), want %d (0x%x)", what,
		     res, res, want, want);
	EXPECT_CQE(cqes, 2, V_UD, want);

	uring_prep_start(ring, V_KIND, V_UD);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 1);
	if (cqes[0].res != want_alone)
		FAIL("%s, not linked: res %d (0x%x), want %d (0x%x)", what,
		     cqes[0].res, cqes[0].res, want_alone, want_alone);
	EXPECT_CQE(cqes, 1, V_UD, want_alone);

	CHECK_EQ(iocoro_detach(&r->co), 0);
	close(r->fds[V_KIND]);
}

/*
 * Every read within a field loads, whole or in part, aligned or not (the
 * step reads struct io_coro_step through the kernel's BTF, which allows
 * any read within one field), and reads what the field holds (the step
 * returns what it read, truncated to the int result), in a start linked
 * after a write and in one linked after nothing.
 */
IOCORO_CASE(verifier_ctx_valid)
{
	static struct valid_run r;
	unsigned int i, bytes, off, size = step_size();

	CHECK(size <= sizeof(r.linked));
	step_image(r.linked, size, true);
	step_image(r.alone, size, false);
	for (i = 0; i < V_KIND; i++)
		r.fds[i] = -1;

	chain_ring(&r.co, 8);
	r.devnull = CHECK_SYS(open("/dev/null", O_WRONLY | O_CLOEXEC));
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		struct step_field f = step_field(fields[i]);

		for (bytes = f.size; bytes; bytes /= 2) {
			for (off = f.off; off + bytes <= f.off + f.size;
			     off += bytes)
				check_read(&r, f.name, bytes, off);
		}
		/* misaligned within the field: BTF allows it, x86 does it */
		check_read(&r, f.name, 2, f.off + 1);
		if (f.size == 8)
			check_read(&r, f.name, 4, f.off + 2);
	}
	close(r.devnull);
	iocoro_queue_exit(&r.co);
}

/*
 * r2 = 1, r3 = 2, r4 = 0, a call of kfunc @id (bpf_io_coro_emit_cqe()),
 * return 0: the end of the emit programs below, whatever r1 is
 */
#define EMIT_CALL(id)                                                         \
	MOV64_IMM(BPF_REG_2, 1), MOV64_IMM(BPF_REG_3, 2),                     \
	MOV64_IMM(BPF_REG_4, 0), CALL_KFUNC(id), MOV64_IMM(BPF_REG_0, 0),      \
	EXIT()

/*
 * bpf_copy_from_user() needs a sleepable step; the kfuncs need the
 * struct io_coro_step the step was given, not a scalar nor the argument
 * array it sits in
 */
IOCORO_CASE(verifier_helpers)
{
	const int emit_id = kfunc_btf_id("bpf_io_coro_emit_cqe");
	const struct bpf_insn copy[] = {
		MOV64_REG(BPF_REG_1, BPF_REG_10),
		ADD64_IMM(BPF_REG_1, -8),
		MOV64_IMM(BPF_REG_2, 8),
		MOV64_IMM(BPF_REG_3, 0),
		CALL(BPF_FUNC_copy_from_user),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};
	const struct bpf_insn emit_no_step[] = {
		MOV64_IMM(BPF_REG_1, 0),
		EMIT_CALL(emit_id),
	};
	const struct bpf_insn emit_args[] = {
		EMIT_CALL(emit_id),
	};
	const struct bpf_insn emit[] = {
		LOAD_STEP_ARG(),
		EMIT_CALL(emit_id),
	};

	expect_reject("bpf_copy_from_user, not sleepable", copy,
		      ARRAY_SIZE(copy), 0, EINVAL,
		      "program of this type cannot use helper "
		      "bpf_copy_from_user#148");
	close(expect_load("bpf_copy_from_user, sleepable", copy,
			  ARRAY_SIZE(copy), BPF_F_SLEEPABLE));

	expect_reject("emit_cqe of NULL", emit_no_step,
		      ARRAY_SIZE(emit_no_step), 0, EACCES,
		      "Possibly NULL pointer passed to trusted arg0");
	expect_reject("emit_cqe of the argument array", emit_args,
		      ARRAY_SIZE(emit_args), 0, EINVAL,
		      "arg#0 pointer type STRUCT io_coro_step must point");
	close(expect_load("emit_cqe", emit, ARRAY_SIZE(emit), 0));
	close(expect_load("emit_cqe, sleepable", emit, ARRAY_SIZE(emit),
			  BPF_F_SLEEPABLE));
}
