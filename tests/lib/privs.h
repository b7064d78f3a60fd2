/* SPDX-License-Identifier: MIT */
/*
 * Privileges for guest tests (privs.c, in iocoro_guestlib): capabilities
 * got, set and dropped, the user nobody, the unprivileged-BPF sysctl,
 * forked children, and programs loaded raw (to see what a privilege
 * check refuses).
 */
#ifndef IOCORO_TESTS_PRIVS_H
#define IOCORO_TESTS_PRIVS_H

#include <linux/bpf.h>
#include <linux/capability.h>

#include <stdbool.h>
#include <sys/types.h>

/* capabilities, all three sets */
struct caps {
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
};

/* the user nobody has no capabilities and owns nothing here */
#define NOBODY 65534

void caps_get(struct caps *c);
void caps_set(const struct caps *c);
bool caps_effective_empty(void);
/* become nobody for good (a child only): no capabilities left */
void become_nobody(void);

/* drop the capabilities of @caps[0..@nr) (all sets) */
void drop_caps(const int *caps, unsigned int nr);
/* drop CAP_BPF, CAP_SYS_ADMIN, CAP_PERFMON, CAP_NET_ADMIN (all sets) */
void drop_bpf_caps(void);

/*
 * Unprivileged BPF (socket filters) must be allowed, so that an -EPERM for
 * a step is about the step and not the sysctl. Returns the old value, to
 * be given to restore_unpriv_bpf().
 */
int allow_unpriv_bpf(void);
/* the sysctl back to @old, as allow_unpriv_bpf() returned it */
void restore_unpriv_bpf(int old);

/* fork() with stdio flushed */
pid_t fork_child(void);
/* wait for child @pid: its wait status */
int reap_child(pid_t pid);
/* the child's wait status says it exited 0 */
void check_child(int status);
/* child @pid exited 0 */
void wait_child(pid_t pid);

/* a program r0 = 0; exit of @type: fd or -errno */
int load_raw(enum bpf_prog_type type, const char *name);
/* load_raw(), failing the test on an error */
int load_raw_ok(enum bpf_prog_type type, const char *name);
/* a step r0 = 0; exit of struct io_coro_ops, loaded raw: fd or -errno */
int load_raw_step(const char *name);

#endif
