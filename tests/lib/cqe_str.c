// SPDX-License-Identifier: MIT
#define _GNU_SOURCE /* strerrorname_np, strerrordesc_np (glibc >= 2.32) */
#include "cqe_str.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <linux/io_uring.h>

/*
 * CQE flag bits are ABI: spelled out here so the text does not depend on
 * which uapi header a build uses, and checked against it where it has them.
 */
#define CQE_F_BUFFER (1U << 0)
#define CQE_F_MORE (1U << 1)
#define CQE_F_SOCK_NONEMPTY (1U << 2)
#define CQE_F_NOTIF (1U << 3)
#define CQE_F_BUF_MORE (1U << 4)
#define CQE_BUFFER_SHIFT 16

_Static_assert(IORING_CQE_F_BUFFER == CQE_F_BUFFER, "F_BUFFER");
_Static_assert(IORING_CQE_F_MORE == CQE_F_MORE, "F_MORE");
_Static_assert(IORING_CQE_BUFFER_SHIFT == CQE_BUFFER_SHIFT, "BUFFER_SHIFT");
#ifdef IORING_CQE_F_SOCK_NONEMPTY
_Static_assert(IORING_CQE_F_SOCK_NONEMPTY == CQE_F_SOCK_NONEMPTY, "F_SOCK_NONEMPTY");
#endif
#ifdef IORING_CQE_F_NOTIF
_Static_assert(IORING_CQE_F_NOTIF == CQE_F_NOTIF, "F_NOTIF");
#endif
#ifdef IORING_CQE_F_BUF_MORE
_Static_assert(IORING_CQE_F_BUF_MORE == CQE_F_BUF_MORE, "F_BUF_MORE");
#endif

static const struct {
	uint32_t bit;
	const char *name;
} cqe_flags[] = {
	{ CQE_F_MORE, "F_MORE" },
	{ CQE_F_SOCK_NONEMPTY, "F_SOCK_NONEMPTY" },
	{ CQE_F_NOTIF, "F_NOTIF" },
	{ CQE_F_BUF_MORE, "F_BUF_MORE" },
};

/* snprintf-style appender: counts what it could not store */
struct out {
	char *buf;
	size_t len;
	size_t pos; /* length of the full text so far */
};

__attribute__((format(printf, 2, 3))) static void out_printf(struct out *o, const char *fmt, ...)
{
	size_t room = o->pos < o->len ? o->len - o->pos : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->pos : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->pos += (size_t)n;
}

static int out_end(struct out *o)
{
	if (o->len && o->pos >= o->len)
		o->buf[o->len - 1] = '\0';
	else if (o->len)
		o->buf[o->pos] = '\0';
	return o->pos > INT32_MAX ? INT32_MAX : (int)o->pos;
}

const char *iocoro_errno_name(int err)
{
	if (err < 0) {
		if (err == INT32_MIN)
			return NULL;
		err = -err;
	}
	if (err == 0)
		return NULL;
	return strerrorname_np(err);
}

static void put_res(struct out *o, int32_t res)
{
	const char *name, *desc;

	out_printf(o, "%" PRId32, res);
	if (res >= 0)
		return;
	name = iocoro_errno_name(res);
	if (!name) {
		out_printf(o, " (unknown errno)");
		return;
	}
	desc = strerrordesc_np(-res);
	out_printf(o, " (%s: %s)", name, desc ? desc : "?");
}

static void put_flags(struct out *o, uint32_t flags)
{
	uint32_t rest = flags;
	const char *sep = "";
	size_t i;

	if (!flags) {
		out_printf(o, "0");
		return;
	}
	if (flags & CQE_F_BUFFER) {
		out_printf(o, "F_BUFFER(bid=%" PRIu32 ")", flags >> CQE_BUFFER_SHIFT);
		/* with F_BUFFER the upper 16 bits are the buffer id */
		rest &= ~CQE_F_BUFFER & ((1U << CQE_BUFFER_SHIFT) - 1);
		sep = "|";
	}
	for (i = 0; i < sizeof(cqe_flags) / sizeof(cqe_flags[0]); i++) {
		if (!(rest & cqe_flags[i].bit))
			continue;
		out_printf(o, "%s%s", sep, cqe_flags[i].name);
		rest &= ~cqe_flags[i].bit;
		sep = "|";
	}
	if (rest)
		out_printf(o, "%s0x%" PRIx32, sep, rest);
}

int iocoro_res_str(char *buf, size_t len, int32_t res)
{
	struct out o = { buf, len, 0 };

	put_res(&o, res);
	return out_end(&o);
}

int iocoro_cqe_flags_str(char *buf, size_t len, uint32_t flags)
{
	struct out o = { buf, len, 0 };

	put_flags(&o, flags);
	return out_end(&o);
}

int iocoro_cqe_fields_str(char *buf, size_t len, uint64_t user_data,
			  int32_t res, uint32_t flags)
{
	struct out o = { buf, len, 0 };

	out_printf(&o, "user_data=0x%" PRIx64 " res=", user_data);
	put_res(&o, res);
	out_printf(&o, " flags=");
	put_flags(&o, flags);
	return out_end(&o);
}

int iocoro_cqe_str(char *buf, size_t len, const struct io_uring_cqe *cqe)
{
	return iocoro_cqe_fields_str(buf, len, cqe->user_data, cqe->res, cqe->flags);
}
