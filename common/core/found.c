/*
 * found.c: the line of a plugin's found() op (see found.h).
 */
#include "common/core/found.h"

#include "common/core/text.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void found_init(struct found_text *f, char *text, size_t size) {
  f->text = text;
  f->size = size;
  f->len = 0;
  f->count = 0;
  if (size > 0)
    text[0] = '\0';
}

/* Append `s`, sanitised when it is a name from the system (`raw`
 * false); on overflow end the line in "...". */
static void found_put(struct found_text *f, const char *s, bool raw) {
  if (f->size == 0 || f->len + 1 >= f->size)
    return;
  char clean[256];
  if (raw)
    snprintf(clean, sizeof(clean), "%s", s);
  else
    text_sanitize(clean, sizeof(clean), s, strlen(s));
  size_t n = strlen(clean), room = f->size - 1 - f->len;
  bool cut = n > room;
  memcpy(f->text + f->len, clean, cut ? room : n);
  f->len += cut ? room : n;
  f->text[f->len] = '\0';
  if (cut && f->size >= 4) /* the line is full: say it goes on */
    memcpy(f->text + f->size - 4, "...", 3);
}

void found_add(struct found_text *f, const char *driver, const char *device) {
  if (f->count++ > 0)
    found_put(f, ", ", /*raw=*/true);
  if (driver != NULL && driver[0] != '\0') {
    found_put(f, driver, /*raw=*/false);
    found_put(f, " ", /*raw=*/true);
  }
  found_put(f, device, /*raw=*/false);
}

int found_none(struct found_text *f, const char *fmt, ...) {
  if (f->size > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->text, f->size, fmt, ap);
    va_end(ap);
  }
  return f->count;
}
