/*
 * pp_session.c: PLACEHOLDER for the kernel side of panthor_perf (device
 * probe through DEV_QUERY, the session's BOs, eventfd and PERF_CONTROL
 * commands, ring reads, reopen with backoff). Every hook says what is
 * missing and fails with -EOPNOTSUPP, so the plugin builds, loads and
 * exits non-zero with a clear message until the real file replaces this.
 */
#include "plugins/panthor_perf/panthor_perf.h"

#include <errno.h>

static const char pp_missing[] =
    "the kernel session is not built into this panthor_perf (placeholder "
    "pp_session.c): nothing can be read";

int pp_session_init(const struct pp_session_params *p, struct pp_session **out,
                    struct pp_gpu *gpu, struct pp_info *info) {
  (void)gpu;
  (void)info;
  *out = NULL;
  log_msg(LOG_LEVEL_ERROR, PP_PLUGIN, p->path, "session", "%s", pp_missing);
  return -EOPNOTSUPP;
}

int pp_session_start(struct pp_session *s,
                     const uint64_t enable[PP_BLOCK_COUNT][2]) {
  (void)s;
  (void)enable;
  return -EOPNOTSUPP;
}

int pp_session_read(struct pp_session *s, pp_sample_fn fn,
                    void (*restart)(void *ctx), void *ctx,
                    struct pp_stream *stream) {
  (void)s, (void)fn, (void)restart, (void)ctx, (void)stream;
  return -EOPNOTSUPP;
}

void pp_session_free(struct pp_session *s) { (void)s; }

int pp_session_discover(const char *dev_root, const struct kernel_ops *kernel,
                        char **paths, size_t max) {
  (void)kernel, (void)paths, (void)max;
  log_msg(LOG_LEVEL_ERROR, PP_PLUGIN, dev_root, "discovery", "%s", pp_missing);
  return -EOPNOTSUPP;
}
