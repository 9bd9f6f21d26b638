/*
 * shim_demo.h: a demonstration character device for the shim's own tests
 * (shim_demo.c), exercising every driver entry point the way the i915
 * and panthor perf drivers will: a device node opened by path, ioctls, a
 * per-open stream read with read()/poll(), and a buffer shared through
 * mmap() between the driver and every process mapping of it.
 *
 * Each open file has a stream of 64-bit values: SHIM_DEMO_IOC_PUSH
 * appends one (ENOSPC when SHIM_DEMO_STREAM_MAX are queued); read()
 * returns as many whole values as fit (ENOSPC below 8 bytes), blocks when
 * empty unless O_NONBLOCK (EAGAIN); poll() reports POLLIN while values
 * are queued. mmap() maps SHIM_DEMO_BUF_SIZE bytes of one memfd shared by
 * every open of every demo device (offset 0, EINVAL beyond the end).
 */
#ifndef TESTS_SHIM_SHIM_DEMO_H
#define TESTS_SHIM_SHIM_DEMO_H

#include <linux/ioctl.h>
#include <stdint.h>

#define SHIM_DEMO_PATH "/dev/shim-demo0" /* default; SHIM_DEMO_PATH env */
#define SHIM_DEMO_MAJOR 240u             /* a local/experimental major */
#define SHIM_DEMO_MINOR 7u
#define SHIM_DEMO_BUF_SIZE 8192u
#define SHIM_DEMO_STREAM_MAX 64u

struct shim_demo_poke {
  uint32_t offset; /* into the shared buffer, 4-byte aligned */
  uint32_t value;
};

#define SHIM_DEMO_IOC_PUSH _IOW('S', 1, uint64_t)
/* the number of ioctls the device answered before this one */
#define SHIM_DEMO_IOC_CALLS _IOR('S', 2, uint64_t)
/* the driver writes `value` into the shared buffer */
#define SHIM_DEMO_IOC_POKE _IOW('S', 3, struct shim_demo_poke)

/* Register the device at `path` (absolute, copied), backed by the shared
 * buffer (created on the first call). 0, or -1 with errno. */
int shim_demo_register(const char *path);
/* The driver's own mapping of the shared buffer, or NULL before the
 * first shim_demo_register(). */
void *shim_demo_buffer(void);

#endif
