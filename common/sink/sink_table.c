/*
 * sink_table.c: human-readable tables (see sink_table.h).
 *
 * Records are borrowed, so write() copies every string into a row it owns;
 * end() groups rows by measurement in first-seen order and prints them.
 * Text reaches a terminal here, so control characters (C0, DEL and the C1
 * range U+0080..U+009F, which some terminals treat as escape sequences)
 * become '?' even though cores sanitise already.
 */
#include "common/sink/sink_table.h"
#include "common/core/numfmt.h"
#include "common/core/text.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define SINK_TABLE_MAX_COLUMNS (METRIC_MAX_TAGS + METRIC_MAX_FIELDS)

/* Sized to the record: a row of a 3-field record does not carry room for
 * METRIC_MAX_FIELDS cells. */
struct sink_table_row {
  char *measurement; /* owned */
  size_t n_cells;
  char **keys;  /* owned array (with its strings) of n_tags + n_fields */
  char **cells; /* owned strings, formatted, printable; keys + capacity */
};

static void sink_table_row_free(struct sink_table_row *row) {
  free(row->measurement);
  for (size_t i = 0; i < row->n_cells; i++) {
    free(row->keys[i]);
    free(row->cells[i]);
  }
  free(row->keys); /* cells live in the same allocation */
  memset(row, 0, sizeof(*row));
}

static void sink_table_clear(struct sink_table *s) {
  for (size_t i = 0; i < s->n_rows; i++)
    sink_table_row_free(&s->rows[i]);
  s->n_rows = 0;
  s->dropped = 0;
}

/* An owned copy of `s` that is safe to print on a terminal (text_char:
 * each character that may not be printed becomes '?'), or NULL. */
static char *sink_table_strdup(const char *s) {
  size_t len = strlen(s);
  char *copy = malloc(len + 1);
  if (copy == NULL)
    return NULL;
  text_sanitize(copy, len + 1, s, len);
  /* text_sanitize trims trailing spaces: a cell keeps them */
  size_t n = strlen(copy);
  for (size_t k = len; k > 0 && s[k - 1] == ' ' && n < len; k--)
    copy[n++] = ' ';
  copy[n] = '\0';
  return copy;
}

/* Display width: code points, counted as UTF-8 lead bytes (wide CJK
 * characters take two cells on most terminals; good enough here). */
static size_t sink_table_width(const char *s) {
  size_t w = 0;
  for (; *s; s++)
    w += ((unsigned char)*s & 0xc0) != 0x80;
  return w;
}

static int sink_table_begin(struct metric_sink *sink) {
  sink_table_clear((struct sink_table *)sink);
  return 0;
}

static int sink_table_cell(struct sink_table_row *row, const char *key,
                           const char *value) {
  char *k = sink_table_strdup(key);
  char *v = sink_table_strdup(value);
  if (k == NULL || v == NULL) {
    free(k);
    free(v);
    return -ENOMEM;
  }
  row->keys[row->n_cells] = k;
  row->cells[row->n_cells] = v;
  row->n_cells++;
  return 0;
}

static int sink_table_write(struct metric_sink *sink, const struct metric *m) {
  struct sink_table *s = (struct sink_table *)sink;
  if (s->n_rows >= SINK_TABLE_MAX_ROWS) {
    s->dropped++;
    return 0;
  }
  if (s->n_rows == s->cap_rows) {
    size_t cap = s->cap_rows ? s->cap_rows * 2 : 64;
    if (cap > SINK_TABLE_MAX_ROWS)
      cap = SINK_TABLE_MAX_ROWS;
    struct sink_table_row *rows = realloc(s->rows, cap * sizeof(*rows));
    if (rows == NULL)
      return -ENOMEM;
    s->rows = rows;
    s->cap_rows = cap;
  }
  struct sink_table_row *row = &s->rows[s->n_rows];
  memset(row, 0, sizeof(*row));
  size_t n = m->n_tags + m->n_fields;
  row->keys = malloc(2 * (n ? n : 1) * sizeof(char *));
  row->cells = row->keys ? row->keys + n : NULL;
  row->measurement = sink_table_strdup(m->measurement);
  int rc = row->measurement && row->keys ? 0 : -ENOMEM;
  for (size_t i = 0; rc == 0 && i < m->n_tags; i++)
    rc = sink_table_cell(row, m->tags[i].key, m->tags[i].value);
  for (size_t i = 0; rc == 0 && i < m->n_fields; i++) {
    char num[48];
    if (m->fields[i].kind == METRIC_INT)
      snprintf(num, sizeof(num), "%" PRId64, m->fields[i].v.i);
    else
      numfmt_double(m->fields[i].v.f, num, sizeof(num)); /* finite */
    rc = sink_table_cell(row, m->fields[i].key, num);
  }
  if (rc < 0) {
    sink_table_row_free(row); /* the batch goes on without this row */
    return rc;
  }
  s->n_rows++;
  return 0;
}

static const char *sink_table_lookup(const struct sink_table_row *row,
                                     const char *key) {
  for (size_t i = 0; i < row->n_cells; i++)
    if (strcmp(row->keys[i], key) == 0)
      return row->cells[i];
  return "-";
}

/* Print `text` left-aligned in a column of `width` cells. */
static void sink_table_put(FILE *out, bool first, const char *text,
                           size_t width) {
  fprintf(out, "%s%s", first ? "" : "  ", text);
  for (size_t w = sink_table_width(text); w < width; w++)
    fputc(' ', out);
}

/* Print every row of one measurement as a table: title, header, rows and
 * a blank line. Columns are the union of the rows' keys, first seen first;
 * keys past the 2 * SINK_TABLE_MAX_COLUMNS-th are not shown. */
static void sink_table_print(struct sink_table *s, const char *measurement) {
  const char *columns[SINK_TABLE_MAX_COLUMNS * 2];
  size_t widths[SINK_TABLE_MAX_COLUMNS * 2];
  size_t n_columns = 0;
  for (size_t r = 0; r < s->n_rows; r++) {
    const struct sink_table_row *row = &s->rows[r];
    if (strcmp(row->measurement, measurement) != 0)
      continue;
    for (size_t i = 0; i < row->n_cells; i++) {
      size_t c = 0;
      while (c < n_columns && strcmp(columns[c], row->keys[i]) != 0)
        c++;
      if (c == n_columns) {
        if (n_columns == sizeof(columns) / sizeof(columns[0]))
          continue;
        columns[n_columns] = row->keys[i];
        widths[n_columns++] = sink_table_width(row->keys[i]);
      }
      size_t w = sink_table_width(row->cells[i]);
      if (w > widths[c])
        widths[c] = w;
    }
  }
  fprintf(s->out, "%s\n", measurement);
  for (size_t c = 0; c < n_columns; c++)
    sink_table_put(s->out, c == 0, columns[c], widths[c]);
  fputc('\n', s->out);
  for (size_t r = 0; r < s->n_rows; r++) {
    const struct sink_table_row *row = &s->rows[r];
    if (strcmp(row->measurement, measurement) != 0)
      continue;
    for (size_t c = 0; c < n_columns; c++)
      sink_table_put(s->out, c == 0, sink_table_lookup(row, columns[c]),
                     widths[c]);
    fputc('\n', s->out);
  }
  fputc('\n', s->out);
}

static int sink_table_end(struct metric_sink *sink) {
  struct sink_table *s = (struct sink_table *)sink;
  for (size_t r = 0; r < s->n_rows; r++) {
    bool printed = false;
    for (size_t k = 0; k < r && !printed; k++)
      printed = strcmp(s->rows[k].measurement, s->rows[r].measurement) == 0;
    if (!printed)
      sink_table_print(s, s->rows[r].measurement);
  }
  if (s->dropped > 0)
    fprintf(s->out, "(%zu rows not shown)\n", s->dropped);
  sink_table_clear(s);
  return fflush(s->out) == 0 && !ferror(s->out) ? 0 : -EIO;
}

void sink_table_init(struct sink_table *s, FILE *out) {
  memset(s, 0, sizeof(*s));
  s->base.begin = sink_table_begin;
  s->base.write = sink_table_write;
  s->base.end = sink_table_end;
  s->out = out;
}

void sink_table_fini(struct sink_table *s) {
  sink_table_clear(s);
  free(s->rows);
  s->rows = NULL;
  s->cap_rows = 0;
}
