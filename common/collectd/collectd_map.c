/*
 * collectd_map.c: the collectd identifier rule (see collectd_map.h, which
 * states it). A name is a list of parts; each part is escaped unit by unit
 * (one plain byte, one %XX escape, one whole UTF-8 sequence) into a buffer
 * that keeps the units fitting in 63 bytes, while its full length and the
 * hash of the whole name are counted, so a long value is never stored.
 */
#include "common/collectd/collectd_map.h"
#include "common/core/text.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define CM_LEN_MAX (COLLECTD_MAP_NAME_MAX - 1) /* 63 */
#define CM_MIN_KEEP 4 /* fewer bytes left for the cut part: cut the name */
#define CM_PARTS_MAX (1 + METRIC_MAX_TAGS + 1) /* label, tags, field */

struct cm_part {
  const char *prefix; /* verbatim, may be NULL */
  const char *value;  /* escaped, may be NULL */
  unsigned flags;
  unsigned keep;             /* CM_KEEP_* */
  char head[CM_LEN_MAX + 1]; /* the units of the part that fit */
  size_t head_len;
  size_t len; /* of the whole escaped part */
};

struct cm_name {
  struct cm_part parts[CM_PARTS_MAX];
  size_t n;
  size_t len;    /* of the whole name, joiners included */
  uint64_t hash; /* FNV-1a of the whole name */
};

/* Length of the valid UTF-8 sequence starting at s (lead byte >= 0x80),
 * or 0 when it is not one (overlong forms, surrogates and code points
 * above U+10FFFF are invalid too). */
static size_t cm_utf8_len(const unsigned char *s) {
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

static bool cm_plain(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '@';
}

/* What a part keeps of '-' and ':' (collectd_map.h). */
enum { CM_KEEP_DASH = 1, CM_KEEP_COLON = 2 };

static unsigned cm_keep(unsigned flags, bool label) {
  if (label)
    return 0;
  return flags & CM_FREE ? CM_KEEP_DASH : CM_KEEP_COLON;
}

/* The escaped unit at *s into u (at most 4 bytes); returns its length and
 * advances *s. */
static size_t cm_unit(const unsigned char **s, unsigned keep, char u[4]) {
  static const char hex[] = "0123456789ABCDEF";
  unsigned char c = **s;
  size_t n = c >= 0x80 ? cm_utf8_len(*s) : 0;
  if (n > 0) {
    memcpy(u, *s, n);
    *s += n;
    return n;
  }
  (*s)++;
  if (cm_plain(c) || (c == '-' && (keep & CM_KEEP_DASH)) ||
      (c == ':' && (keep & CM_KEEP_COLON))) {
    u[0] = (char)c;
    return 1;
  }
  if (c == '/') {
    u[0] = '+';
    return 1;
  }
  u[0] = '%';
  u[1] = hex[c >> 4];
  u[2] = hex[c & 0xf];
  return 3;
}

/* Append `len` bytes of part text: counted, hashed, kept while they fit. */
static void cm_put(struct cm_name *nm, struct cm_part *p, const char *u,
                   size_t len) {
  nm->hash = text_hash64_step(nm->hash, u, len);
  nm->len += len;
  if (p->head_len == p->len && p->head_len + len <= CM_LEN_MAX) {
    memcpy(p->head + p->head_len, u, len);
    p->head_len += len;
  }
  p->len += len;
}

static void cm_add(struct cm_name *nm, const char *prefix, const char *value,
                   unsigned flags, bool label) {
  if (nm->n == CM_PARTS_MAX)
    return; /* cannot happen: label, METRIC_MAX_TAGS tags, field */
  struct cm_part *p = &nm->parts[nm->n];
  if (nm->n > 0) {
    nm->hash = text_hash64_step(nm->hash, "-", 1);
    nm->len++;
  }
  nm->n++;
  *p = (struct cm_part){.prefix = prefix,
                        .value = value,
                        .flags = flags,
                        .keep = cm_keep(flags, label)};
  if (prefix != NULL)
    cm_put(nm, p, prefix, strlen(prefix));
  const unsigned char *s = (const unsigned char *)(value ? value : "");
  while (*s != '\0') {
    char u[4];
    size_t n = cm_unit(&s, p->keep, u);
    cm_put(nm, p, u, n);
  }
}

static uint32_t cm_fold(uint64_t h) { return (uint32_t)(h ^ (h >> 32)); }

/* Copy `src` (n bytes of whole units) to out at *at, as room allows. */
static void cm_cat(char *out, size_t *at, const char *src, size_t n) {
  if (*at + n > CM_LEN_MAX)
    n = CM_LEN_MAX - *at;
  memcpy(out + *at, src, n);
  *at += n;
}

/* The longest run of whole units of the escaped `s` (len bytes, starting
 * on a unit) that ends within `room` bytes. */
static size_t cm_head_fit(const char *s, size_t len, size_t room) {
  size_t at = 0;
  while (at < len) {
    size_t n = 1;
    unsigned char c = (unsigned char)s[at];
    if (c == '%')
      n = 3;
    else if (c >= 0x80)
      n = cm_utf8_len((const unsigned char *)s + at);
    if (n == 0 || at + n > room || at + n > len)
      break;
    at += n;
  }
  return at;
}

/* The start of `v`, escaped with `keep`, in whole units of at most `room`
 * bytes. */
static size_t cm_start(const char *v, unsigned keep, size_t room,
                       char out[CM_LEN_MAX + 1]) {
  const unsigned char *s = (const unsigned char *)v;
  size_t len = 0;
  while (*s != '\0') {
    char u[4];
    size_t n = cm_unit(&s, keep, u);
    if (len + n > room || len + n > CM_LEN_MAX)
      break;
    memcpy(out + len, u, n);
    len += n;
  }
  return len;
}

/* The end of part p, escaped, in whole units of at most `room` bytes. */
static size_t cm_tail(const struct cm_part *p, size_t room,
                      char out[CM_LEN_MAX + 1]) {
  const char *v = p->value ? p->value : "";
  size_t vlen = strlen(v);
  /* every input byte makes at least one output byte, and a byte that
   * does not continue a UTF-8 sequence starts a unit */
  size_t from = vlen > room ? vlen - room : 0;
  while (from < vlen && ((unsigned char)v[from] & 0xc0) == 0x80)
    from++;
  char buf[4 * (CM_LEN_MAX + 1)];
  size_t len = 0;
  const unsigned char *s = (const unsigned char *)v + from;
  while (*s != '\0' && len + 4 <= sizeof(buf)) {
    char u[4];
    size_t n = cm_unit(&s, p->keep, u);
    memcpy(buf + len, u, n);
    len += n;
  }
  /* drop whole units from the front until the rest fits */
  size_t start = 0;
  while (len - start > room) {
    unsigned char c = (unsigned char)buf[start];
    size_t n = c == '%'    ? 3
               : c >= 0x80 ? cm_utf8_len((unsigned char *)buf + start)
                           : 1;
    start += n ? n : 1;
  }
  memcpy(out, buf + start, len - start);
  return len - start;
}

static void cm_finish(struct cm_name *nm, char out[COLLECTD_MAP_NAME_MAX]) {
  size_t at = 0;
  if (nm->len <= CM_LEN_MAX) {
    for (size_t i = 0; i < nm->n; i++) {
      if (i > 0)
        cm_cat(out, &at, "-", 1);
      cm_cat(out, &at, nm->parts[i].head, nm->parts[i].head_len);
    }
    out[at] = '\0';
    return;
  }
  char hash[COLLECTD_MAP_HASH_LEN + 1];
  snprintf(hash, sizeof(hash), "%08" PRIx32, cm_fold(nm->hash));
  /* the part that gives way */
  size_t cut = nm->n;
  for (size_t i = 0; i < nm->n && cut == nm->n; i++)
    if (nm->parts[i].flags & CM_TAIL)
      cut = i;
  for (size_t i = 0; i < nm->n && cut == nm->n; i++)
    if (nm->parts[i].flags & CM_FREE)
      cut = i;
  for (size_t i = nm->n; i-- > 0 && cut == nm->n;)
    if (nm->parts[i].value != NULL)
      cut = i;
  size_t others = nm->len - (cut < nm->n ? nm->parts[cut].len : 0);
  size_t need = others + COLLECTD_MAP_HASH_LEN;
  if (cut < nm->n && need + CM_MIN_KEEP <= CM_LEN_MAX) {
    struct cm_part *p = &nm->parts[cut];
    size_t room = CM_LEN_MAX - need;
    for (size_t i = 0; i < nm->n; i++) {
      if (i > 0)
        cm_cat(out, &at, "-", 1);
      if (i != cut) {
        cm_cat(out, &at, nm->parts[i].head, nm->parts[i].head_len);
      } else if (p->flags & CM_TAIL) {
        /* whole trailing path components (from a '+'), else the start
         * of the last one */
        char tail[CM_LEN_MAX + 1];
        size_t plen = p->prefix ? strlen(p->prefix) : 0;
        size_t keep = room > plen ? room - plen : 0;
        size_t tlen = cm_tail(p, keep, tail);
        const char *plus = memchr(tail, '+', tlen);
        cm_cat(out, &at, p->head, cm_head_fit(p->head, p->head_len, plen));
        if (plus != NULL) {
          cm_cat(out, &at, hash, 8);
          cm_cat(out, &at, "~", 1);
          cm_cat(out, &at, plus, tlen - (size_t)(plus - tail));
        } else {
          const char *v = p->value ? p->value : "";
          const char *last = strrchr(v, '/');
          cm_cat(out, &at, tail,
                 cm_start(last ? last + 1 : v, p->keep, keep, tail));
          cm_cat(out, &at, "~", 1);
          cm_cat(out, &at, hash, 8);
        }
      } else {
        cm_cat(out, &at, p->head, cm_head_fit(p->head, p->head_len, room));
        cm_cat(out, &at, "~", 1);
        cm_cat(out, &at, hash, 8);
      }
    }
    out[at] = '\0';
    return;
  }
  /* the name itself: its first 54 bytes, then ~HASH */
  char full[CM_LEN_MAX + 1];
  size_t flen = 0;
  for (size_t i = 0; i < nm->n && flen < CM_LEN_MAX; i++) {
    if (i > 0)
      cm_cat(full, &flen, "-", 1);
    cm_cat(full, &flen, nm->parts[i].head, nm->parts[i].head_len);
  }
  size_t keep = cm_head_fit(full, flen, CM_LEN_MAX - COLLECTD_MAP_HASH_LEN);
  memcpy(out, full, keep);
  at = keep;
  cm_cat(out, &at, "~", 1);
  cm_cat(out, &at, hash, 8);
  out[at] = '\0';
}

static bool cm_rule_applies(const struct collectd_rule *r,
                            const struct metric *m) {
  if (strcmp(r->measurement, m->measurement) != 0)
    return false;
  if (r->when_tag == NULL)
    return true;
  const char *v = metric_tag_value(m, r->when_tag);
  return v != NULL && (r->when_value == NULL || strcmp(v, r->when_value) == 0);
}

const struct collectd_rule *
collectd_rule_find(const struct collectd_rule *rules, const struct metric *m) {
  for (; rules != NULL && rules->measurement != NULL; rules++)
    if (cm_rule_applies(rules, m))
      return rules;
  return NULL;
}

static void cm_parts(struct cm_name *nm, const struct collectd_part *parts,
                     const struct metric *m) {
  for (size_t i = 0; i < COLLECTD_RULE_PARTS; i++) {
    const struct collectd_part *p = &parts[i];
    if (p->tag == NULL && p->prefix == NULL)
      break;
    const char *v = p->tag ? metric_tag_value(m, p->tag) : NULL;
    if (p->tag != NULL && v == NULL && (p->flags & CM_OPTIONAL))
      continue;
    cm_add(nm, p->prefix, p->tag ? (v ? v : "") : NULL, p->flags, false);
  }
}

/* type: the ctype, '/' -> '_' (a types.db name has none), at most 63. */
static void cm_type(char *out, const char *s) {
  size_t n = strnlen(s, CM_LEN_MAX);
  for (size_t i = 0; i < n; i++)
    out[i] = s[i] == '/' ? '_' : s[i];
  out[n] = '\0';
}

void collectd_map(const struct collectd_rule *rules, const struct metric *m,
                  size_t field_index, const char *plugin_name,
                  const char *instance_label, struct collectd_ident *out) {
  const struct metric_field *f = &m->fields[field_index];
  const struct collectd_rule *r = collectd_rule_find(rules, m);
  struct cm_name nm;

  nm.n = nm.len = 0;
  nm.hash = TEXT_HASH64_INIT;
  if (instance_label != NULL && plugin_name != NULL &&
      strcmp(instance_label, plugin_name) != 0)
    cm_add(&nm, NULL, instance_label, 0, true);
  if (r != NULL)
    cm_parts(&nm, r->plugin_instance, m);
  else
    for (size_t i = 0; i < m->n_tags; i++)
      cm_add(&nm, NULL, m->tags[i].value, 0, false);
  cm_finish(&nm, out->plugin_instance);

  cm_type(out->type, f->ctype);

  nm.n = nm.len = 0;
  nm.hash = TEXT_HASH64_INIT;
  if (r != NULL)
    cm_parts(&nm, r->type_instance, m);
  else
    cm_add(&nm, m->measurement, NULL, 0, false);
  cm_add(&nm, f->key, NULL, 0, false);
  cm_finish(&nm, out->type_instance);
}
