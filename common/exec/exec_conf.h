/*
 * exec_conf.h: gpu-telemetry's --config sources read as collectd reads
 * its configuration (collectd's src/daemon/configfile.c: cf_read_generic,
 * cf_read_dir, cf_include_all; collectd.conf(5), Include):
 *
 *  - each --config, in command-line order, is a file, a directory or a
 *    glob the shell left unexpanded; "-" is stdin and /dev/fd/N (or
 *    /proc/self/fd/N) a descriptor, pipes included (a process
 *    substitution, a here-document);
 *  - a directory is read whole: its entries sorted by strcmp, names
 *    starting with '.' skipped, files read and subdirectories descended,
 *    anything else (a FIFO, a socket, a device) skipped with a warning;
 *  - a glob is expanded (no other shell expansion) and its matches read
 *    in strcmp order;
 *  - `Include PATH` and `<Include PATH> Filter "GLOB" </Include>` at the
 *    top of a file are replaced by what PATH holds, Filter keeping the
 *    files whose name matches (fnmatch); a PATH that holds nothing is a
 *    warning, as in collectd; an Include inside a block is left to the
 *    block (collectd does not follow it either);
 *  - at most EXEC_CONF_MAX_DEPTH files are included inside each other,
 *    the one given counted (collectd's CF_MAX_DEPTH);
 *  - where collectd stops a loop only at that depth (and loops forever on
 *    a directory symlinked into itself), a file or directory that
 *    includes itself is refused at once, naming the chain.
 *
 * A named FIFO, socket or device as --config (or Include) is refused
 * without waiting for a writer: every path is opened O_NONBLOCK and
 * checked with fstat before a byte is read; only "-" and /dev/fd/N, which
 * the caller opened for us, are read as pipes.
 */
#ifndef COMMON_EXEC_EXEC_CONF_H
#define COMMON_EXEC_EXEC_CONF_H

#include "common/core/cfg.h"

#include <stddef.h>

/* collectd's CF_MAX_DEPTH (configfile.c): Include nesting. */
#define EXEC_CONF_MAX_DEPTH 8

/* Bounds on what is read: one file's size, files in all. */
#define EXEC_CONF_MAX_BYTES (4u << 20)
#define EXEC_CONF_MAX_FILES 1024u

struct exec_conf {
  struct cfg_item *items; /* owned: every file's top-level items, in the
                           * order read, Includes replaced */
  size_t n_items;
  size_t *file_of; /* owned, per item: its file in `files` */
  char **files;    /* owned: the name of each file read */
  size_t n_files;
};

/*
 * Read the `n` sources in order into `c` (zeroed first). Returns 0, or 2
 * after saying why (ERROR, as `program`: a file that cannot be read or
 * parsed, a FIFO, an Include too deep or in a loop), or 1 on ENOMEM.
 * Free with exec_conf_fini() in every case.
 */
int exec_conf_read(struct exec_conf *c, const char *program,
                   const char *const *sources, size_t n);

/* "file:line" of item `i` (or of a child whose line is `line`, 0: the
 * item's own) into out[size]; returns out. */
const char *exec_conf_where(const struct exec_conf *c, size_t i, unsigned line,
                            char *out, size_t size);

void exec_conf_fini(struct exec_conf *c);

#endif
