/*
 * collectd_conf.c: collectd's configuration syntax (see collectd_conf.h).
 */
#include "common/exec/collectd_conf.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct conf_parser {
  const char *p, *end;
  unsigned line;
  char *err;
  size_t err_size;
};

static int conf_fail(struct conf_parser *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int conf_fail(struct conf_parser *c, const char *fmt, ...) {
  int n = snprintf(c->err, c->err_size, "line %u: ", c->line);
  va_list ap;
  va_start(ap, fmt);
  if (n >= 0 && (size_t)n < c->err_size)
    vsnprintf(c->err + n, c->err_size - (size_t)n, fmt, ap);
  va_end(ap);
  return -EINVAL;
}

static bool conf_word_char(char ch) {
  return isalnum((unsigned char)ch) || strchr("_./:@+-", ch) != NULL;
}

/* Skip blanks, comments and escaped line ends; stop at a line end. */
static void conf_skip_blank(struct conf_parser *c) {
  while (c->p < c->end) {
    char ch = *c->p;
    if (ch == ' ' || ch == '\t' || ch == '\b' || ch == '\f' || ch == '\v')
      c->p++;
    else if (ch == '\\' && c->p + 1 < c->end &&
             (c->p[1] == '\n' ||
              (c->p[1] == '\r' && c->p + 2 < c->end && c->p[2] == '\n'))) {
      c->p += c->p[1] == '\n' ? 2 : 3;
      c->line++;
    } else if (ch == '#')
      while (c->p < c->end && *c->p != '\n')
        c->p++;
    else
      return;
  }
}

/* At a line end (or the end): consume it. */
static bool conf_eol(struct conf_parser *c) {
  conf_skip_blank(c);
  if (c->p == c->end)
    return true;
  if (*c->p == '\r' && c->p + 1 < c->end && c->p[1] == '\n')
    c->p++;
  if (*c->p == '\n') {
    c->p++;
    c->line++;
    return true;
  }
  return false;
}

/* A word of conf_word_char: its length (0: none). */
static size_t conf_word(const struct conf_parser *c) {
  size_t n = 0;
  while (c->p + n < c->end && conf_word_char(c->p[n]))
    n++;
  return n;
}

/* A value of a word: number, boolean or string. */
static void conf_word_value(const char *w, size_t n, struct cfg_value *v,
                            char *text) {
  static const char *const yes[] = {"true", "yes", "on"};
  static const char *const no[] = {"false", "no", "off"};
  memcpy(text, w, n);
  text[n] = '\0';
  for (size_t k = 0; k < 3; k++) {
    if (strcasecmp(text, yes[k]) == 0 || strcasecmp(text, no[k]) == 0) {
      v->type = CFG_BOOLEAN;
      v->boolean = strcasecmp(text, yes[k]) == 0;
      return;
    }
  }
  /* collectd's number shapes: decimal and float (cfg_parse_double, in
   * the C locale), 0x hex, 0 octal, each with an optional sign. */
  bool minus = text[0] == '-';
  const char *s = text + (text[0] == '+' || text[0] == '-');
  int base = s[0] == '0' && (s[1] == 'x' || s[1] == 'X')   ? 16
             : s[0] == '0' && isdigit((unsigned char)s[1]) ? 8
                                                           : 10;
  double d;
  if (base != 10) {
    char *end;
    errno = 0;
    unsigned long long u = strtoull(s + (base == 16 ? 2 : 1), &end, base);
    if (errno == 0 && *end == '\0' && end != s + (base == 16 ? 2 : 1)) {
      v->type = CFG_NUMBER;
      v->number = minus ? -(double)u : (double)u;
      return;
    }
  } else if (cfg_parse_double(text, &d) == 0) {
    v->type = CFG_NUMBER;
    v->number = d;
    return;
  }
  v->type = CFG_STRING;
}

/* Parse one value at c->p into `v` (string values owned). 0, -EINVAL,
 * -ENOMEM, or 1 when no value starts here. */
static int conf_value(struct conf_parser *c, struct cfg_value *v) {
  memset(v, 0, sizeof(*v));
  if (c->p < c->end && *c->p == '"') {
    const char *q = c->p + 1;
    size_t cap = 0;
    while (q < c->end && *q != '"') {
      if (*q == '\\' && q + 1 < c->end)
        q++;
      if (*q == '\n')
        c->line++;
      q++;
      cap++;
    }
    if (q >= c->end)
      return conf_fail(c, "unterminated string");
    char *s = malloc(cap + 1);
    if (s == NULL)
      return -ENOMEM;
    size_t n = 0;
    for (const char *r = c->p + 1; r < q; r++) {
      if (*r == '\\' && r + 1 < q)
        r++;
      s[n++] = *r;
    }
    s[n] = '\0';
    v->type = CFG_STRING;
    v->string = s;
    c->p = q + 1;
    return 0;
  }
  size_t n = conf_word(c);
  if (n == 0)
    return 1;
  char *text = malloc(n + 1);
  if (text == NULL)
    return -ENOMEM;
  conf_word_value(c->p, n, v, text);
  if (v->type == CFG_STRING)
    v->string = text;
  else
    free(text);
  c->p += n;
  return 0;
}

static void conf_values_free(struct cfg_value *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    free((void *)v[i].string);
  free(v);
}

/* Values up to `stop` ('\n' or '>'). */
static int conf_values(struct conf_parser *c, char stop,
                       struct cfg_item *item) {
  struct cfg_value *values = NULL;
  size_t n = 0;
  for (;;) {
    conf_skip_blank(c);
    if (c->p == c->end || *c->p == stop || *c->p == '\n' || *c->p == '\r')
      break;
    struct cfg_value v;
    int rc = conf_value(c, &v);
    if (rc == 1)
      rc = conf_fail(c, "unexpected character '%s%c' in the values of %s",
                     isprint((unsigned char)*c->p) ? "" : "\\",
                     isprint((unsigned char)*c->p) ? *c->p : '?', item->key);
    struct cfg_value *grown =
        rc == 0 ? cfg_array_grow(values, n, sizeof(*values)) : NULL;
    if (rc == 0 && grown == NULL) {
      free((void *)v.string);
      rc = -ENOMEM;
    }
    if (rc != 0) {
      conf_values_free(values, n);
      return rc;
    }
    values = grown;
    values[n++] = v;
  }
  item->values = values;
  item->n_values = n;
  return 0;
}

static int conf_items(struct conf_parser *c, const char *block, int depth,
                      struct cfg_item **items, size_t *n);

/* One line: an item, a block (with its children), or `</block>` (1). */
static int conf_line(struct conf_parser *c, const char *block, int depth,
                     struct cfg_item **items, size_t *n) {
  bool open = false;
  if (*c->p == '<') {
    c->p++;
    if (c->p < c->end && *c->p == '/') {
      c->p++;
      size_t w = conf_word(c);
      if (block == NULL || w != strlen(block) ||
          strncasecmp(c->p, block, w) != 0)
        return conf_fail(c, "</%.*s> closes no open block%s%s", (int)w, c->p,
                         block ? ": expected </" : "", block ? block : "");
      c->p += w;
      conf_skip_blank(c);
      if (c->p == c->end || *c->p != '>')
        return conf_fail(c, "expected '>' after </%s", block);
      c->p++;
      return conf_eol(c) ? 1 : conf_fail(c, "text after </%s>", block);
    }
    open = true;
  }
  size_t w = conf_word(c);
  if (w == 0 || !(isalpha((unsigned char)*c->p) || *c->p == '_'))
    return conf_fail(c, "expected a key");
  struct cfg_item *grown = cfg_array_grow(*items, *n, sizeof(**items));
  if (grown == NULL)
    return -ENOMEM;
  *items = grown;
  struct cfg_item *item = &grown[*n];
  memset(item, 0, sizeof(*item));
  if ((item->key = strndup(c->p, w)) == NULL)
    return -ENOMEM;
  item->line = c->line;
  (*n)++;
  c->p += w;
  int rc = conf_values(c, open ? '>' : '\n', item);
  if (rc != 0)
    return rc;
  if (!open)
    return conf_eol(c) ? 0
                       : conf_fail(c, "unexpected text after %s", item->key);
  if (c->p == c->end || *c->p != '>')
    return conf_fail(c, "expected '>' to end <%s", item->key);
  c->p++;
  if (!conf_eol(c))
    return conf_fail(c, "text after <%s ...>", item->key);
  if (depth + 1 >= COLLECTD_CONF_MAX_DEPTH)
    return conf_fail(c, "blocks nested deeper than %d",
                     COLLECTD_CONF_MAX_DEPTH);
  struct cfg_item *children = NULL;
  size_t n_children = 0;
  rc = conf_items(c, item->key, depth + 1, &children, &n_children);
  item->children = children;
  item->n_children = n_children;
  return rc;
}

/* Lines until `</block>` (block NULL: the end of the text). */
static int conf_items(struct conf_parser *c, const char *block, int depth,
                      struct cfg_item **items, size_t *n) {
  for (;;) {
    if (conf_eol(c)) {
      if (c->p == c->end)
        return block ? conf_fail(c, "<%s> is not closed", block) : 0;
      continue;
    }
    int rc = conf_line(c, block, depth, items, n);
    if (rc == 1)
      return 0;
    if (rc != 0)
      return rc;
  }
}

int collectd_conf_parse(const char *text, size_t len, struct cfg_item **items,
                        size_t *n, char *err, size_t err_size) {
  struct conf_parser c = {text, text + len, 1, err, err_size};
  *items = NULL;
  *n = 0;
  if (err_size > 0)
    err[0] = '\0';
  if (memchr(text, '\0', len) != NULL)
    return conf_fail(&c, "a NUL byte in the file");
  int rc = conf_items(&c, NULL, 0, items, n);
  if (rc == -ENOMEM)
    snprintf(err, err_size, "out of memory");
  if (rc != 0) {
    cfg_items_free(*items, *n);
    *items = NULL;
    *n = 0;
  }
  return rc;
}
