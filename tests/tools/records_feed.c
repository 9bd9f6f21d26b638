/*
 * records_feed.c: a plugin that reads its records from a file at every
 * read, in the exec host (build/tests/records_feed), so that a test can
 * show the live view records whose plugin side is elsewhere or scripted:
 * drm_fdinfo's ReportBy Container rows, drm_device's held values and their
 * age, six devices of six drivers.
 *
 *   records_feed --File=PATH [--format=top ...]
 *
 * PATH holds one record per line, its parts separated by TABs: the
 * measurement, then tags `key=value` and fields `key:ctype=value`
 * (`value` ending in `i`: an integer). `#` starts a comment line. The file
 * is read whole at each read (at most 1 MiB), so a test changes the
 * records by replacing the file (write aside, then rename). Each record's
 * time is the host clock's. A line that does not parse is an error naming
 * the file and the line; the read then fails.
 */
#include "common/core/cfg.h"
#include "common/core/log.h"
#include "common/core/plugin.h"
#include "common/exec/host_exec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RF_PLUGIN "records_feed"
#define RF_MAX_BYTES (1 << 20)

struct rf_instance {
  char *path; /* owned */
  const struct plugin_host *host;
  char *buf; /* owned, RF_MAX_BYTES + 1 */
};

static void *rf_instance_new(const char *label) {
  (void)label;
  return calloc(1, sizeof(struct rf_instance));
}

static int rf_configure(void *inst, const struct cfg_item *item) {
  struct rf_instance *rf = inst;
  if (cfg_key_is(item, "File")) {
    const char *v;
    int rc = cfg_get_string(RF_PLUGIN, item, &v);
    if (rc < 0)
      return rc;
    free(rf->path);
    rf->path = strdup(v);
    return rf->path ? 0 : -ENOMEM;
  }
  return cfg_unknown(RF_PLUGIN, item);
}

static int rf_init(void *inst, const struct plugin_host *host) {
  struct rf_instance *rf = inst;
  rf->host = host;
  if (rf->path == NULL) {
    log_msg(LOG_LEVEL_ERROR, RF_PLUGIN, "config", "File", "is required");
    return -EINVAL;
  }
  rf->buf = malloc(RF_MAX_BYTES + 1);
  return rf->buf ? 0 : -ENOMEM;
}

/* One line into `m`; false when it does not parse. */
static bool rf_parse(char *line, uint64_t time_ns, struct metric *m) {
  char *save = NULL;
  char *part = strtok_r(line, "\t", &save);
  if (part == NULL || part[0] == '\0')
    return false;
  metric_init(m, part, time_ns);
  while ((part = strtok_r(NULL, "\t", &save)) != NULL) {
    char *eq = strchr(part, '=');
    if (eq == NULL)
      return false;
    *eq = '\0';
    char *colon = strchr(part, ':');
    if (colon == NULL) {
      if (metric_add_tag(m, part, eq + 1) < 0)
        return false;
      continue;
    }
    *colon = '\0';
    char *end;
    size_t len = strlen(eq + 1);
    if (len > 1 && eq[len] == 'i') {
      eq[len] = '\0';
      long long v = strtoll(eq + 1, &end, 10);
      if (*end != '\0' || metric_add_int(m, part, colon + 1, v) < 0)
        return false;
    } else {
      double v = strtod(eq + 1, &end);
      if (end == eq + 1 || *end != '\0' ||
          metric_add_float(m, part, colon + 1, v) < 0)
        return false;
    }
  }
  return true;
}

static int rf_read(void *inst, struct metric_sink *sink) {
  struct rf_instance *rf = inst;
  int fd = open(rf->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    log_errno(LOG_LEVEL_ERROR, RF_PLUGIN, rf->path, "open", errno, NULL);
    return -errno;
  }
  size_t len = 0;
  ssize_t n;
  while (len < RF_MAX_BYTES &&
         (n = read(fd, rf->buf + len, RF_MAX_BYTES - len)) > 0)
    len += (size_t)n;
  close(fd);
  rf->buf[len] = '\0';
  uint64_t now = plugin_host_realtime_ns(rf->host);
  size_t lineno = 0;
  char *save = NULL;
  for (char *line = strtok_r(rf->buf, "\n", &save); line != NULL;
       line = strtok_r(NULL, "\n", &save)) {
    lineno++;
    if (line[0] == '#')
      continue;
    struct metric m;
    if (!rf_parse(line, now, &m)) {
      log_msg(LOG_LEVEL_ERROR, RF_PLUGIN, rf->path, "parse",
              "line %zu: not `measurement<TAB>tag=v<TAB>field:ctype=v`",
              lineno);
      return -EINVAL;
    }
    int rc = metric_sink_write(sink, &m);
    if (rc < 0)
      return rc;
  }
  return 0;
}

static void rf_instance_free(void *inst) {
  struct rf_instance *rf = inst;
  if (rf == NULL)
    return;
  free(rf->path);
  free(rf->buf);
  free(rf);
}

static const struct cfg_option rf_options[] = {
    {"File", "none", "the records, one a line, read at each read"},
    {NULL, NULL, NULL}};

static const struct plugin_ops rf_ops = {
    .name = RF_PLUGIN,
    .options = rf_options,
    .instance_new = rf_instance_new,
    .configure = rf_configure,
    .init = rf_init,
    .read = rf_read,
    .instance_free = rf_instance_free,
};

int main(int argc, char **argv) { return host_exec_main(&rf_ops, argc, argv); }
