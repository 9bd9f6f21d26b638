/*
 * exec_prom.c: the executables' Prometheus page (see exec_host.h): the
 * last current read of every instance through sink_prom, then, as
 * node_exporter reports each collector on every scrape, a gauge per
 * instance saying whether its last read succeeded and is current, how long
 * it took and when it ended, and the program's build_info.
 */
#include "common/core/log.h"
#include "common/core/numfmt.h"
#include "common/core/text.h"
#include "common/exec/exec_host.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct exec_page {
  struct exec_host *x;
  size_t len;
  bool nomem;
};

static void exec_page_put(struct exec_page *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void exec_page_put(struct exec_page *p, const char *fmt, ...) {
  struct exec_host *x = p->x;
  for (int pass = 0; pass < 2 && !p->nomem; pass++) {
    va_list ap;
    va_start(ap, fmt);
    size_t room = x->page_cap - p->len;
    int n = vsnprintf(x->page ? x->page + p->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n < 0) {
      p->nomem = true;
      return;
    }
    if ((size_t)n < room) {
      p->len += (size_t)n;
      return;
    }
    size_t cap = x->page_cap ? x->page_cap : 4096;
    while (cap - p->len <= (size_t)n)
      cap *= 2;
    char *grown = realloc(x->page, cap);
    if (grown == NULL)
      p->nomem = true;
    else {
      x->page = grown;
      x->page_cap = cap;
    }
  }
}

/* Append `len` bytes (the exposition itself: no formatting). */
static void exec_page_append(struct exec_page *p, const char *text,
                             size_t len) {
  struct exec_host *x = p->x;
  if (p->nomem || len + 1 <= x->page_cap - p->len) {
    if (!p->nomem)
      memcpy(x->page + p->len, text, len);
    p->len += p->nomem ? 0 : len;
    return;
  }
  size_t cap = x->page_cap ? x->page_cap : 4096;
  while (cap - p->len < len + 1)
    cap *= 2;
  char *grown = realloc(x->page, cap);
  if (grown == NULL) {
    p->nomem = true;
    return;
  }
  x->page = grown;
  x->page_cap = cap;
  memcpy(x->page + p->len, text, len);
  p->len += len;
}

void exec_prom_label(const char *label, char out[EXEC_PROM_LABEL_MAX]) {
  /* keyed: two long labels that differ past the cut stay two series */
  text_sanitize_keyed(out, EXEC_PROM_LABEL_MAX, label, strlen(label));
}

/* A label value: exec_prom_label, then '\\' and '"' escaped as the text
 * format says. */
static const char *exec_label(const char *in, char out[256]) {
  char clean[EXEC_PROM_LABEL_MAX];
  exec_prom_label(in, clean);
  size_t n = 0;
  for (const char *c = clean; *c != '\0' && n + 2 < 256; c++) {
    if (*c == '\\' || *c == '"')
      out[n++] = '\\';
    out[n++] = *c;
  }
  out[n] = '\0';
  return out;
}

/* The program's name as a metric name prefix ("gpu-telemetry" ->
 * "gpu_telemetry"). */
static void exec_prefix(const char *program, char out[64]) {
  size_t n = 0;
  for (; program[n] != '\0' && n + 1 < 64; n++)
    out[n] = (program[n] >= 'a' && program[n] <= 'z') ||
                     (program[n] >= '0' && program[n] <= '9' && n > 0)
                 ? program[n]
                 : '_';
  out[n] = '\0';
}

static const struct {
  const char *name, *help;
} exec_gauges[] = {
    {"gpu_telemetry_collector_success",
     "1 when the plugin instance's last read succeeded and is current (it "
     "ended within 3 read intervals), else 0"},
    {"gpu_telemetry_collector_duration_seconds",
     "How long the plugin instance's last read took"},
    {"gpu_telemetry_collector_last_read_timestamp_seconds",
     "When the plugin instance's last read ended, as Unix time"},
};

/* The device count of every instance whose plugin says what it found
 * (plugin.h: found), so that a collector that works and found nothing
 * (success 1, devices 0) is told from one that found two GPUs. */
static void exec_prom_devices(struct exec_page *p, const struct runner *r) {
  static const char name[] = "gpu_telemetry_collector_devices";
  bool any = false;
  for (size_t k = 0; k < r->n && !any; k++)
    any = r->inst[k]->devices >= 0;
  if (!any)
    return;
  exec_page_put(p,
                "# HELP %s How many devices the plugin instance found at its "
                "last read (GPUs, accelerators, uncore PMUs)\n"
                "# TYPE %s gauge\n",
                name, name);
  for (size_t k = 0; k < r->n; k++) {
    const struct runner_instance *i = r->inst[k];
    char label[256];
    if (i->devices >= 0)
      exec_page_put(p, "%s{plugin=\"%s\",plugin_instance=\"%s\"} %d\n", name,
                    i->ops->name, exec_label(i->label, label), i->devices);
  }
}

long exec_prom_page(struct exec_host *x, uint64_t now) {
  /* Every current read, each with its plugin's own field types; the sink
   * says what a pass refused or dropped (prom_http_sink.c). */
  struct sink_prom *prom = &x->prom.prom;
  x->prom.base.begin(&x->prom.base);
  const struct runner *r = &x->runner;
  for (size_t k = 0; k < r->n; k++)
    if (runner_current(r->inst[k], now)) {
      sink_prom_set_units(prom, r->inst[k]->ops->units);
      snapshot_replay(&r->inst[k]->last, &x->prom.base, /*split=*/false);
      r->inst[k]->fresh = false;
    }
  x->prom.base.end(&x->prom.base);
  size_t len;
  const char *text = sink_prom_text(prom, &len);
  struct exec_page p = {x, 0, false};
  exec_page_append(&p, text, len);
  for (size_t g = 0; g < sizeof(exec_gauges) / sizeof(exec_gauges[0]); g++) {
    exec_page_put(&p, "# HELP %s %s\n# TYPE %s gauge\n", exec_gauges[g].name,
                  exec_gauges[g].help, exec_gauges[g].name);
    for (size_t k = 0; k < r->n; k++) {
      const struct runner_instance *i = r->inst[k];
      char label[256], value[NUMFMT_DOUBLE_MAX];
      if (g > 0 && !i->have_last)
        continue; /* no read ended yet: no duration, no time */
      double v = g == 0   ? (runner_current(i, now) &&
                           (i->last_rc >= 0 || snapshot_records(&i->last) > 0))
                                ? 1
                                : 0
                 : g == 1 ? (double)i->last_duration_ns / 1e9
                          : (double)i->last_unix_ns / 1e9;
      if (g == 0) /* a flag: 0 or 1 */
        snprintf(value, sizeof(value), "%d", v > 0);
      else
        numfmt_double(v, value, sizeof(value));
      exec_page_put(&p, "%s{plugin=\"%s\",plugin_instance=\"%s\"} %s\n",
                    exec_gauges[g].name, i->ops->name,
                    exec_label(i->label, label), value);
    }
  }
  exec_prom_devices(&p, r);
  char prefix[64];
  exec_prefix(x->program, prefix);
  exec_page_put(
      &p,
      "# HELP %s_build_info The version of %s that serves this "
      "page\n# TYPE %s_build_info gauge\n%s_build_info{version=\"%s\"}"
      " 1\n",
      prefix, x->program, prefix, prefix, HOST_EXEC_VERSION);
  if (p.nomem || prom->nomem) {
    log_errno(LOG_LEVEL_ERROR, x->program, "prometheus", "exposition", ENOMEM,
              NULL);
    return -ENOMEM;
  }
  return (long)p.len;
}
