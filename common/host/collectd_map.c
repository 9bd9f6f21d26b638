/*
 * collectd_map.c: the collectd identifier rule (see collectd_map.h, which
 * states the rule). A name is built from indivisible units (one plain
 * byte, one %XX escape, one whole UTF-8 sequence) streamed through a
 * writer that keeps what fits in 127 bytes, the last unit boundary at or
 * before byte 110 and the FNV-1a hash of everything, so the full encoded
 * name is never stored.
 */
#include "common/host/collectd_map.h"
#include "common/core/text.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MAP_LEN_MAX (COLLECTD_MAP_NAME_MAX - 1)
#define MAP_CUT_MAX (MAP_LEN_MAX - COLLECTD_MAP_HASH_LEN)

struct map_name {
  char *p;         /* COLLECTD_MAP_NAME_MAX bytes */
  size_t len;      /* bytes of the full name kept in p (a prefix) */
  size_t full_len; /* length of the full encoded name */
  size_t cut;      /* last unit boundary <= MAP_CUT_MAX */
  uint64_t hash;   /* FNV-1a of the full encoded name */
};

static void map_name_init(struct map_name *n, char *p) {
  *n = (struct map_name){p, 0, 0, 0, TEXT_HASH64_INIT};
  p[0] = '\0';
}

/* Append one indivisible unit of `len` bytes. */
static void map_unit(struct map_name *n, const char *u, size_t len) {
  n->hash = text_hash64_step(n->hash, u, len);
  if (n->len == n->full_len && n->len + len <= MAP_LEN_MAX) {
    memcpy(n->p + n->len, u, len);
    n->len += len;
  }
  n->full_len += len;
  if (n->full_len <= MAP_CUT_MAX)
    n->cut = n->full_len;
}

/* Terminate: the full name if it fits, else the cut prefix and its hash. */
static void map_name_finish(struct map_name *n) {
  if (n->full_len <= MAP_LEN_MAX) {
    n->p[n->len] = '\0';
    return;
  }
  snprintf(n->p + n->cut, COLLECTD_MAP_HASH_LEN + 1, "~%016" PRIx64, n->hash);
}

static bool map_must_escape(unsigned char c) {
  return c < 0x20 || c == 0x7f ||
         (c != '\0' && strchr("%+=~/.,;:!\"'\\*?[]{}() ", c) != NULL);
}

/* Length of the valid UTF-8 sequence starting at s (lead byte >= 0x80),
 * or 0 when it is not one (overlong forms, surrogates and code points
 * above U+10FFFF are invalid too). */
static size_t map_utf8_len(const unsigned char *s) {
  unsigned char c = s[0];
  size_t n;
  unsigned char lo = 0x80, hi = 0xbf; /* allowed range of the 2nd byte */
  if (c >= 0xc2 && c <= 0xdf)
    n = 2;
  else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    if (c == 0xe0)
      lo = 0xa0;
    else if (c == 0xed)
      hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    if (c == 0xf0)
      lo = 0x90;
    else if (c == 0xf4)
      hi = 0x8f;
  } else
    return 0;
  if (s[1] < lo || s[1] > hi)
    return 0;
  for (size_t i = 2; i < n; i++)
    if ((s[i] & 0xc0) != 0x80)
      return 0;
  return n;
}

/* Append `s` escaped (collectd_map.h). */
static void map_escaped(struct map_name *n, const char *s) {
  static const char hex[] = "0123456789ABCDEF";
  const unsigned char *u = (const unsigned char *)s;
  while (*u != '\0') {
    size_t len = *u >= 0x80 ? map_utf8_len(u) : 0;
    if (len > 0) {
      map_unit(n, (const char *)u, len);
      u += len;
    } else if (map_must_escape(*u) || *u >= 0x80) {
      char e[3] = {'%', hex[*u >> 4], hex[*u & 0xf]};
      map_unit(n, e, sizeof(e));
      u++;
    } else {
      map_unit(n, (const char *)u, 1);
      u++;
    }
  }
}

/* Append a KEY=VALUE part, preceded by '+' unless it is the first. */
static void map_part(struct map_name *n, const char *key, const char *value) {
  if (n->full_len > 0)
    map_unit(n, "+", 1);
  map_escaped(n, key);
  map_unit(n, "=", 1);
  map_escaped(n, value);
}

/* type: copied with '/' -> '_', cut at 127 bytes on a UTF-8 boundary. */
static void map_type(char *out, const char *s) {
  size_t n = strlen(s);
  if (n > MAP_LEN_MAX) {
    n = MAP_LEN_MAX;
    /* s[n] is the first byte left out; if it continues a sequence, back
     * off to that sequence's lead byte and leave the lead out too */
    while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
      n--;
  }
  for (size_t i = 0; i < n; i++)
    out[i] = s[i] == '/' ? '_' : s[i];
  out[n] = '\0';
}

void collectd_map(const struct metric *m, size_t field_index,
                  const char *plugin_name, const char *instance_label,
                  struct collectd_ident *out) {
  const struct metric_field *f = &m->fields[field_index];
  struct map_name n;

  map_name_init(&n, out->plugin_instance);
  /* The label part marks a named instance; a record whose first tag is
   * keyed "instance" gets it too, or its first tag would read as one. */
  bool named = instance_label != NULL && plugin_name != NULL &&
               strcmp(instance_label, plugin_name) != 0;
  if (named || (m->n_tags > 0 && strcmp(m->tags[0].key, "instance") == 0))
    map_part(&n, "instance",
             instance_label != NULL ? instance_label
             : plugin_name != NULL  ? plugin_name
                                    : "");
  for (size_t i = 0; i < m->n_tags; i++)
    map_part(&n, m->tags[i].key, m->tags[i].value);
  map_name_finish(&n);

  map_type(out->type, f->ctype);

  map_name_init(&n, out->type_instance);
  map_escaped(&n, m->measurement);
  map_unit(&n, "_", 1);
  map_escaped(&n, f->key);
  map_name_finish(&n);
}
