/*
 * sysfs_value.h: decoding the values of sysfs and hwmon attributes.
 *
 * A sysfs show function prints one value and a newline into one page
 * (fs/sysfs/file.c: sysfs_kf_seq_show; sysfs_emit). These decoders take the
 * bytes of one read() and accept exactly that shape: the value, at most one
 * trailing newline, nothing else. "N/A", an empty file, a page without a
 * newline cut at 4 KiB, "nan", a sign where none belongs: all -EINVAL.
 *
 * Pure: no I/O, no allocation, no globals.
 */
#ifndef COMMON_SYSFS_SYSFS_VALUE_H
#define COMMON_SYSFS_SYSFS_VALUE_H

#include <stddef.h>
#include <stdint.h>

/* The largest attribute read: one page (PAGE_SIZE on x86 and arm64 with
 * 4 KiB pages). A read that fills it is a cut value. */
#define SYSFS_VALUE_MAX 4096

/* An unsigned decimal ("%u\n", "%llu\n", "%d\n" of a non-negative value).
 * 0, -EINVAL (not that shape) or -ERANGE (above UINT64_MAX). */
int sysfs_value_u64(const char *buf, size_t len, uint64_t *out);

/* A signed decimal ("%d\n", "%ld\n": hwmon temperatures may be negative).
 * 0, -EINVAL or -ERANGE. */
int sysfs_value_s64(const char *buf, size_t len, int64_t *out);

/* A word or short phrase ("suspended\n", an hwmon label "edge\n"):
 * printable ASCII, spaces only between words, copied into out (size > 0).
 * 0 or -EINVAL (empty, control characters, does not fit). */
int sysfs_value_word(const char *buf, size_t len, char *out, size_t size);

/*
 * amdgpu's DPM level list (amdgpu_pm.c: amdgpu_get_pp_dpm_clock, printed by
 * each SMU's print_clk_levels / emit_clk_levels):
 *
 *   0: 500Mhz
 *   1: 800Mhz *
 *   2: 1000Mhz
 *
 * The current level is the line marked " *" (levels of the same
 * frequency may each be marked). Some SMUs print a level "S:"
 * (sleep) or the value with "MHz"; both are accepted. When the current
 * clock is none of the levels, renoir_ppt.c: renoir_print_clk_levels adds
 * an unindexed line "   1234Mhz *", which is then the current one. *hz gets the
 * current level's frequency in hertz. 0, -ENOENT (no level is current) or
 * -EINVAL.
 */
int sysfs_value_dpm_current(const char *buf, size_t len, uint64_t *hz);

#endif
