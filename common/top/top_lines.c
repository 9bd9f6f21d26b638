/*
 * top_lines.c: the line builder of top_render (top_lines.h): cells placed
 * by display width, never wider than the screen.
 */
#include "common/top/top_lines.h"
#include "common/top/top_text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void top_lb_start(struct top_lb *lb, int cols) {
  lb->buf[0] = '\0';
  lb->used = 0;
  lb->cols = cols;
}

void top_lb_cell(struct top_lb *lb, const char *s, int width, bool right) {
  int left = lb->cols - lb->used;
  if (left <= 0)
    return;
  if (width < 0) { /* as wide as the text */
    width = top_text_width(s);
    right = false;
  }
  if (right && width > left) { /* a column shown whole or not at all */
    lb->used = lb->cols;
    return;
  }
  if (width > left)
    width = left;
  if (right) {
    int w = top_text_width(s);
    if (w > width) {       /* a cut number would read as another number */
      lb->used = lb->cols; /* and nothing after it: columns stay aligned */
      return;
    }
    for (int i = w; i < width; i++) {
      top_text_fit(lb->buf, sizeof(lb->buf), " ", 1, 0);
      lb->used++;
    }
    width = w < width ? w : width;
  }
  lb->used += top_text_fit(lb->buf, sizeof(lb->buf), s, width, !right);
}

void top_lb_whole(struct top_lb *lb, const char *s) {
  if (top_text_width(s) <= lb->cols - lb->used)
    top_lb_cell(lb, s, -1, false);
}

int top_screen_add(struct top_screen *s, const struct top_options *o,
                   const char *text, enum top_line_kind kind) {
  if (o->rows > 0 && s->n >= (size_t)o->rows)
    return 0;
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 64;
    struct top_line *g = realloc(s->lines, cap * sizeof(*g));
    if (g == NULL)
      return -ENOMEM;
    s->lines = g;
    s->cap = cap;
  }
  char *copy = strdup(text);
  if (copy == NULL)
    return -ENOMEM;
  s->lines[s->n].text = copy;
  s->lines[s->n].kind = kind;
  s->n++;
  return 0;
}

int top_screen_lb(struct top_screen *s, const struct top_options *o,
                  struct top_lb *lb, enum top_line_kind kind) {
  /* trailing spaces carry nothing */
  size_t len = strlen(lb->buf);
  while (len > 0 && lb->buf[len - 1] == ' ')
    lb->buf[--len] = '\0';
  return top_screen_add(s, o, lb->buf, kind);
}

bool top_match(const char *filter, const char *const *values, size_t n) {
  if (filter[0] == '\0')
    return true;
  for (size_t i = 0; i < n; i++)
    if (values[i] != NULL && strcasestr(values[i], filter) != NULL)
      return true;
  return false;
}
