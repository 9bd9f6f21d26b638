/*
 * proc_stat.h: the one field of /proc/<pid>/stat we need, the process's
 * start time (field 22, `starttime`, in clock ticks after boot; proc(5)),
 * which tells a new process under a reused pid from the old one.
 *
 * The second field is the command name in parentheses and may itself
 * contain spaces and ')' (a process chooses its name), so fields are
 * counted after the LAST ')' of the line. Pure: no I/O, no allocation.
 */
#ifndef COMMON_PROC_PROC_STAT_H
#define COMMON_PROC_PROC_STAT_H

#include <stddef.h>
#include <stdint.h>

/* Decode the start time from the `len` bytes of a stat line at `text`
 * (need not be NUL-terminated). 0, or -EINVAL when the line is truncated
 * or the field is not a decimal number that fits 64 bits. */
int proc_stat_start_time_decode(const char *text, size_t len, uint64_t *out);

#endif
