/*
 * log.h: every message of every plugin goes through here, in one shape:
 *
 *   PLUGIN: OBJECT: WHAT: DETAIL
 *
 * PLUGIN is the LoadPlugin name, OBJECT a device, PMU, process, path or
 * "config", WHAT the syscall, ioctl or config key, DETAIL the strerror of the
 * saved errno or a decoder's error text. The host decides where messages go
 * (collectd: plugin_log; exec: stderr) by installing a log function.
 */
#ifndef COMMON_CORE_LOG_H
#define COMMON_CORE_LOG_H

#include <stdbool.h>

enum log_level {
  LOG_LEVEL_ERROR = 3,
  LOG_LEVEL_WARNING = 4,
  LOG_LEVEL_NOTICE = 5,
  LOG_LEVEL_INFO = 6,
  LOG_LEVEL_DEBUG = 7,
};

typedef void (*log_fn)(enum log_level level, const char *message);

/* Install the host's log function (NULL restores the default, stderr).
 * Messages above `max_level` are discarded before formatting. */
void log_set_sink(log_fn fn, enum log_level max_level);

/* Emit "plugin: object: what: detail"; any of object/what may be NULL and is
 * then left out. `detail_fmt` is printf-style. */
void log_msg(enum log_level level, const char *plugin, const char *object,
             const char *what, const char *detail_fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Emit "plugin: object: what: strerror(err)" and, when `hint` is non-NULL
 * and err is EACCES or EPERM, "; hint: <hint>". */
void log_errno(enum log_level level, const char *plugin, const char *object,
               const char *what, int err, const char *hint);

/*
 * Rate limiting in the spirit of collectd's c_complain: a complaint is
 * logged the first time it is raised and then stays quiet until released,
 * which logs one recovery line at INFO.
 */
struct log_complaint {
  bool raised;
};

/* Returns true (and the caller should log) only on the first raise. */
bool log_complaint_raise(struct log_complaint *c);
/* Returns true when the complaint was raised and is now cleared. */
bool log_complaint_release(struct log_complaint *c);

#endif
