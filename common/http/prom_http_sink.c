/*
 * prom_http_sink.c: the sink of --format=prometheus and --listen (see
 * prom_http.h): a sink_prom that writes or publishes each pass and says
 * on the log what a pass refused or dropped.
 */
#include "common/core/log.h"
#include "common/http/prom_http.h"
#include "common/sink/sink_prom.h"

#include <stdio.h>
#include <string.h>

static int prom_http_sink_begin(struct metric_sink *sink) {
  struct prom_http_sink *s = (struct prom_http_sink *)sink;
  return s->prom.base.begin(&s->prom.base);
}

static int prom_http_sink_write(struct metric_sink *sink,
                                const struct metric *m) {
  struct prom_http_sink *s = (struct prom_http_sink *)sink;
  return s->prom.base.write(&s->prom.base, m);
}

static int prom_http_sink_end(struct metric_sink *sink) {
  struct prom_http_sink *s = (struct prom_http_sink *)sink;
  int rc = s->prom.base.end(&s->prom.base);
  if (s->prom.refused > 0 && strcmp(s->said, s->prom.clash) != 0) {
    log_msg(LOG_LEVEL_ERROR, s->plugin, "prometheus", "exposition",
            "%zu field(s) not exposed this pass; first: %s", s->prom.refused,
            s->prom.clash);
    snprintf(s->said, sizeof(s->said), "%s", s->prom.clash);
  }
  /* duplicates: said when they start or change, and when they stop */
  if (s->prom.duplicates > 0 &&
      (log_complaint_raise(&s->dup_said) ||
       strcmp(s->dup_first, s->prom.duplicate) != 0)) {
    log_msg(LOG_LEVEL_ERROR, s->plugin, "prometheus", "exposition",
            "%zu sample(s) with the name and labels of another dropped this "
            "pass; first: %s",
            s->prom.duplicates, s->prom.duplicate);
    snprintf(s->dup_first, sizeof(s->dup_first), "%s", s->prom.duplicate);
  } else if (s->prom.duplicates == 0 && log_complaint_release(&s->dup_said)) {
    log_msg(LOG_LEVEL_INFO, s->plugin, "prometheus", "exposition",
            "no duplicate samples any more");
    s->dup_first[0] = '\0';
  }
  if (rc == 0 && s->http != NULL) {
    size_t len;
    const char *text = sink_prom_text(&s->prom, &len);
    rc = prom_http_publish(s->http, text, len);
  }
  return rc;
}

void prom_http_sink_init(struct prom_http_sink *s, const char *plugin,
                         FILE *stream, struct prom_http *http) {
  memset(s, 0, sizeof(*s));
  s->base.begin = prom_http_sink_begin;
  s->base.write = prom_http_sink_write;
  s->base.end = prom_http_sink_end;
  sink_prom_init(&s->prom, stream);
  s->http = http;
  s->plugin = plugin;
}

void prom_http_sink_fini(struct prom_http_sink *s) { sink_prom_fini(&s->prom); }
