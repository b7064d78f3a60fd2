// SPDX-License-Identifier: MIT
/* Privileges, children and raw loads for guest tests: privs.h */
#define _GNU_SOURCE
#include "privs.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "uring_bpf.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define UNPRIV_SYSCTL "/proc/sys/kernel/unprivileged_bpf_disabled"

/* a program r0 = 0; exit of @type: fd or -errno */
int load_raw(enum bpf_prog_type type, const char *name)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return bpf_prog_load(type, name, "GPL", insns, ARRAY_SIZE(insns), NULL);
}

int load_raw_ok(enum bpf_prog_type type, const char *name)
{
	int fd = load_raw(type, name);

	if (fd < 0)
		FAIL("loading a program of type %d: %d (%s)", type, fd,
		     strerror(-fd));
	return fd;
}

/* ------------------------------------------------------------- kinds */
int load_raw_step(const char *name)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	int fd;

	/* member 0 of struct io_coro_ops: step */
	opts.expected_attach_type = 0;
	opts.attach_btf_id = uring_kind_layout()->ops_type_id;
	fd = bpf_prog_load(BPF_PROG_TYPE_STRUCT_OPS, name, "GPL", insns,
			   ARRAY_SIZE(insns), &opts);
	return fd < 0 ? -errno : fd;
}

/* ------------------------------------------------------------- privileges */
void drop_caps(const int *caps, unsigned int nr)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	unsigned int i;

	CHECK_SYS(syscall(SYS_capget, &hdr, data));
	for (i = 0; i < nr; i++) {
		__u32 bit = CAP_TO_MASK(caps[i]);
		int w = CAP_TO_INDEX(caps[i]);

		data[w].effective &= ~bit;
		data[w].permitted &= ~bit;
		data[w].inheritable &= ~bit;
	}
	CHECK_SYS(syscall(SYS_capset, &hdr, data));

	memset(data, 0xff, sizeof(data));
	CHECK_SYS(syscall(SYS_capget, &hdr, data));
	for (i = 0; i < nr; i++) {
		CHECK(!(data[CAP_TO_INDEX(caps[i])].effective &
			CAP_TO_MASK(caps[i])));
		CHECK(!(data[CAP_TO_INDEX(caps[i])].permitted &
			CAP_TO_MASK(caps[i])));
	}
}

void drop_bpf_caps(void)
{
	static const int caps[] = { CAP_BPF, CAP_SYS_ADMIN, CAP_PERFMON,
				    CAP_NET_ADMIN };

	drop_caps(caps, ARRAY_SIZE(caps));
}

/*
 * Unprivileged BPF (socket filters) must be allowed, so that an -EPERM for
 * a step is about the step and not the sysctl
 */
int allow_unpriv_bpf(void)
{
	char buf[16] = "";
	int fd, old;

	fd = CHECK_SYS(open(UNPRIV_SYSCTL, O_RDWR | O_CLOEXEC));
	CHECK(CHECK_SYS(read(fd, buf, sizeof(buf) - 1)) > 0);
	old = atoi(buf);
	if (old == 1)
		FAIL(UNPRIV_SYSCTL " is 1 (locked until reboot): the "
		     "unprivileged control load cannot be done");
	if (old != 0)
		CHECK_EQ(CHECK_SYS(pwrite(fd, "0\n", 2, 0)), 2);
	close(fd);
	return old;
}

void restore_unpriv_bpf(int old)
{
	char buf[16];
	int fd, len;

	if (old == 0)
		return;
	len = snprintf(buf, sizeof(buf), "%d\n", old);
	fd = CHECK_SYS(open(UNPRIV_SYSCTL, O_WRONLY | O_CLOEXEC));
	CHECK_EQ(CHECK_SYS(write(fd, buf, (size_t)len)), len);
	close(fd);
}

/* wait for child @pid: its wait status */
int reap_child(pid_t pid)
{
	int status;

	CHECK_EQ(CHECK_SYS(waitpid(pid, &status, 0)), pid);
	return status;
}

/* the child's wait status says it exited 0 */
void check_child(int status)
{
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		FAIL("child failed (wait status 0x%x)", status);
}

void wait_child(pid_t pid)
{
	check_child(reap_child(pid));
}

pid_t fork_child(void)
{
	fflush(stdout);
	fflush(stderr);
	return CHECK_SYS(fork());
}

/* capabilities: get, set (all three sets as given) */
void caps_get(struct caps *c)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};

	CHECK_SYS(syscall(SYS_capget, &hdr, c->d));
}

void caps_set(const struct caps *c)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};

	CHECK_SYS(syscall(SYS_capset, &hdr, c->d));
}

bool caps_effective_empty(void)
{
	struct caps c;
	unsigned int i;

	caps_get(&c);
	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		if (c.d[i].effective)
			return false;
	return true;
}

void become_nobody(void)
{
	CHECK_SYS(setgroups(0, NULL));
	CHECK_SYS(setresgid(NOBODY, NOBODY, NOBODY));
	CHECK_SYS(setresuid(NOBODY, NOBODY, NOBODY));
	CHECK(caps_effective_empty());
}
