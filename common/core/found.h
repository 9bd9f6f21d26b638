/*
 * found.h: the line a plugin's found() op writes (plugin.h): the devices
 * it found, "DRIVER DEVICE" items joined by ", ", or why there is none.
 * Device and driver names come from sysfs and the kernel: sanitised
 * (text.h) so the line cannot drive a terminal.
 */
#ifndef COMMON_CORE_FOUND_H
#define COMMON_CORE_FOUND_H

#include <stddef.h>

struct found_text {
  char *text; /* borrowed: the caller's buffer */
  size_t size;
  size_t len;
  int count; /* items added */
};

/* Start an empty line in text[0..size). */
void found_init(struct found_text *f, char *text, size_t size);

/* Add one device ("i915 card0"); `driver` NULL or "" leaves it out. A
 * line that does not fit ends in "..." and still counts the device. */
void found_add(struct found_text *f, const char *driver, const char *device);

/* The line, when no device was added: why, printf-style. Returns
 * f->count (0). */
int found_none(struct found_text *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
