/*
 * collectd_map.c: the collectd identifier rule (see collectd_map.h, which
 * states the rule). Each name is built by appending parts to a bounded
 * buffer; the first part that does not fit whole ends that name.
 */
#include "common/host/collectd_map.h"

#include <stdbool.h>
#include <string.h>

struct map_out {
  char *p; /* COLLECTD_MAP_NAME_MAX bytes */
  size_t len;
  bool full; /* truncated: later parts are not appended */
};

/* Append `s`, replacing '/' by '_'. When `s` does not fit in the 127 bytes
 * left, keep the longest prefix that does not split a UTF-8 sequence and
 * stop the name there, so the result stays a prefix of the full text (a
 * cut tag value is never followed by "-" and the next value). */
static void map_append(struct map_out *o, const char *s) {
  if (o->full)
    return;
  size_t n = strlen(s);
  size_t room = COLLECTD_MAP_NAME_MAX - 1 - o->len;
  if (n > room) {
    n = room;
    o->full = true;
    /* s[n] is the first byte left out; if it continues a sequence, back
     * off to that sequence's lead byte and leave the lead out too */
    while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
      n--;
  }
  for (size_t i = 0; i < n; i++)
    o->p[o->len++] = s[i] == '/' ? '_' : s[i];
  o->p[o->len] = '\0';
}

void collectd_map(const struct metric *m, size_t field_index,
                  struct collectd_ident *out) {
  const struct metric_field *f = &m->fields[field_index];
  struct map_out pi = {out->plugin_instance, 0, false};
  struct map_out t = {out->type, 0, false};
  struct map_out ti = {out->type_instance, 0, false};
  pi.p[0] = t.p[0] = ti.p[0] = '\0';
  for (size_t i = 0; i < m->n_tags; i++) {
    if (i > 0)
      map_append(&pi, "-");
    map_append(&pi, m->tags[i].value);
  }
  map_append(&t, f->ctype);
  map_append(&ti, m->measurement);
  map_append(&ti, "_");
  map_append(&ti, f->key);
}
