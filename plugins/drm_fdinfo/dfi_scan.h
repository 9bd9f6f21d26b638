/*
 * dfi_scan.h: how a drm_fdinfo read finds clients: dfi_scan.c walks one
 * process and re-reads known clients; dfi_procscan.c decides which
 * processes a read walks (see its top comment).
 */
#ifndef PLUGINS_DRM_FDINFO_DFI_SCAN_H
#define PLUGINS_DRM_FDINFO_DFI_SCAN_H

#include "plugins/drm_fdinfo/dfi.h"

#include <stdbool.h>
#include <sys/types.h>

/* dfi_scan.c: one process, one client */
/* Walk /proc/<pid>/fd, recording what it found in `e` (may be NULL). */
void dfi_scan_pid(struct dfi *d, pid_t pid, struct dfi_pid *e);
/* Re-read known clients through the fds they were found under. */
void dfi_refresh_known(struct dfi *d);
/* The attribution rule (dfi_scan.c) applied to c's holders. */
void dfi_reattribute(struct dfi *d, struct dfi_client *c);
bool dfi_client_on_suspended(struct dfi *d, struct dfi_client *c);
/* A /proc entry name as a pid; 0 when it is not one. */
pid_t dfi_parse_pid(const char *name);

/* dfi_procscan.c: which processes a read walks */
/* Decide at init whether the kernel reports fd counts (FdCount). */
void dfi_fd_count_detect(struct dfi *d);
/* Watch <DevRoot>/dri and <DevRoot>/accel for opens (inotify), if any;
 * learn whether ProcRoot is our own pid namespace's /proc. */
void dfi_open_watch(struct dfi *d);
int dfi_scan(struct dfi *d);

#endif
