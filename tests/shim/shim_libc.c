/*
 * shim_libc.c: the real calls of the in-process shim (libshim.a), which
 * has no interposers: libc's functions themselves.
 */
#include "tests/shim/shim_libc.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static const struct shim_libc shim_libc_direct = {
    .open = open,
    .openat = openat,
    .close = close,
    .read = read,
    .ioctl = ioctl,
    .poll = poll,
    .ppoll = ppoll,
    .mmap = mmap,
    .munmap = munmap,
    .dup = dup,
    .dup2 = dup2,
    .dup3 = dup3,
    .fcntl = fcntl,
    .fstat = fstat,
    .syscall = syscall,
};

const struct shim_libc *shim_libc(void) { return &shim_libc_direct; }
