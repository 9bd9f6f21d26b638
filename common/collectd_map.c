/*
 * collectd_map.c: the collectd identifier rule (see collectd_map.h).
 */
#include "common/collectd_map.h"

#include <string.h>

struct map_out {
  char *p;
  size_t len;
};

/* Append `s`, replacing '/' and stopping before COLLECTD_MAP_NAME_MAX - 1
 * bytes at a UTF-8 sequence boundary. */
static void map_append(struct map_out *o, const char *s) {
  size_t n = strlen(s);
  size_t room = COLLECTD_MAP_NAME_MAX - 1 - o->len;
  if (n > room) {
    n = room;
    /* back off continuation bytes so no sequence is split */
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
  struct map_out pi = {out->plugin_instance, 0};
  struct map_out t = {out->type, 0};
  struct map_out ti = {out->type_instance, 0};
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
