/*
 * drm_clients_parse.h: decoder for the DRM debugfs client list,
 * <debugfs>/dri/<minor>/clients (drivers/gpu/drm/drm_debugfs.c,
 * drm_clients_info). Its rows are printed as
 *
 *   "%20s %5d %3d   %c    %c %5d %10u" (+ " %s" client name, newer kernels)
 *    command pid dev  master a  uid  magic
 *
 * The command (task comm, at most 15 bytes, may contain spaces) is right-
 * aligned in 20 columns, so the pid always starts at column 21; parsing by
 * column instead of by whitespace keeps a comm with spaces harmless.
 *
 * Pure: no I/O, no allocation.
 */
#ifndef COMMON_DRM_DRM_CLIENTS_PARSE_H
#define COMMON_DRM_DRM_CLIENTS_PARSE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Collect the pid of every client row (pid > 0; kernel-internal clients
 * print 0) into `pids` (room for `max`), in file order, and the count into
 * *n. Lines that are not client rows (the header) are skipped. Returns 0,
 * -E2BIG when there were more than `max` rows (the first `max` are kept),
 * or -EINVAL for NULL arguments.
 */
int drm_clients_parse(const void *buf, size_t len, pid_t *pids, size_t max,
                      size_t *n);

#endif
