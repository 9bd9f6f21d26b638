/*
 * exec_conf.c: gpu-telemetry's --config sources: files, directories,
 * globs, pipes and Include, as collectd reads them (see exec_conf.h).
 */
#include "common/exec/exec_conf.h"

#include "common/core/log.h"
#include "common/exec/collectd_conf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <glob.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Files and directories being read, each inside the one before: Include
 * nesting (at most EXEC_CONF_MAX_DEPTH) and directories within them. */
#define CONF_CHAIN_MAX 64

struct conf_read {
  struct exec_conf *c;
  const char *program;
  struct {
    dev_t dev;
    ino_t ino;
    const char *name; /* borrowed for the time it is on the chain */
  } chain[CONF_CHAIN_MAX];
  size_t n_chain;
  size_t n_opened; /* files read, against EXEC_CONF_MAX_FILES */
};

/* How a path was reached: a --config (its failures are errors), an
 * Include (a path holding nothing is a warning, as in collectd), or an
 * entry of a directory or a glob's match (what is not a file or a
 * directory is skipped with a warning, as in collectd). */
enum conf_how { CONF_GIVEN, CONF_INCLUDE, CONF_ENTRY };

static int conf_source(struct conf_read *r, const char *path,
                       const char *filter, int depth, enum conf_how how,
                       bool may_glob);

/* "-", /dev/fd/N and /proc/self/fd/N: descriptors the caller opened,
 * pipes included; every other path must be a file or a directory. */
static bool conf_is_descriptor(const char *path) {
  const char *n = strcmp(path, "-") == 0                 ? ""
                  : !strncmp(path, "/dev/fd/", 8)        ? path + 8
                  : !strncmp(path, "/proc/self/fd/", 14) ? path + 14
                                                         : NULL;
  return n != NULL &&
         (n[0] == '\0' ? path[0] == '-' : strspn(n, "0123456789") == strlen(n));
}

/* Open without waiting for a FIFO's writer; 0 or -errno. */
static int conf_open(const char *path, int *fd, struct stat *st) {
  *fd = strcmp(path, "-") == 0
            ? fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3)
            : open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (*fd < 0)
    return -errno;
  if (fstat(*fd, st) < 0) {
    int err = errno;
    close(*fd);
    *fd = -1;
    return -err;
  }
  return 0;
}

/* The chain as "a -> b -> c" for a loop's message. */
static void conf_chain_text(const struct conf_read *r, const char *last,
                            char *out, size_t size) {
  size_t len = 0;
  out[0] = '\0';
  for (size_t k = 0; k < r->n_chain && len < size; k++)
    len += (size_t)snprintf(out + len, size - len, "%s -> ", r->chain[k].name);
  if (len < size)
    snprintf(out + len, size - len, "%s", last);
}

/* Put `path` (`st`) on the chain; 2 (said) when it is there already or
 * the chain is full. */
static int conf_push(struct conf_read *r, const char *path,
                     const struct stat *st) {
  char text[1024];
  for (size_t k = 0; k < r->n_chain; k++)
    if (r->chain[k].dev == st->st_dev && r->chain[k].ino == st->st_ino) {
      conf_chain_text(r, path, text, sizeof(text));
      log_msg(LOG_LEVEL_ERROR, r->program, path, "Include",
              "includes itself: %s", text);
      return 2;
    }
  if (r->n_chain == CONF_CHAIN_MAX) {
    log_msg(LOG_LEVEL_ERROR, r->program, path, "Include",
            "more than %d files and directories inside each other",
            CONF_CHAIN_MAX);
    return 2;
  }
  r->chain[r->n_chain].dev = st->st_dev;
  r->chain[r->n_chain].ino = st->st_ino;
  r->chain[r->n_chain].name = path;
  r->n_chain++;
  return 0;
}

/* Read all of `fd` (a file, or a pipe once blocking again); 0, or 2 after
 * saying why. */
static int conf_slurp(struct conf_read *r, int fd, const char *path,
                      const struct stat *st, char **out, size_t *len) {
  if (S_ISREG(st->st_mode) && st->st_size > (off_t)EXEC_CONF_MAX_BYTES) {
    log_msg(LOG_LEVEL_ERROR, r->program, path, "--config",
            "larger than %u bytes", EXEC_CONF_MAX_BYTES);
    return 2;
  }
  int flags = fcntl(fd, F_GETFL);
  if (flags >= 0 && (flags & O_NONBLOCK))
    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK); /* a pipe: wait for its data */
  size_t cap = S_ISREG(st->st_mode) ? (size_t)st->st_size + 1 : 4096, got = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (buf == NULL) {
      log_errno(LOG_LEVEL_ERROR, r->program, path, "read", ENOMEM, NULL);
      return 1;
    }
    if (got == cap) {
      if (cap > EXEC_CONF_MAX_BYTES) {
        log_msg(LOG_LEVEL_ERROR, r->program, path, "--config",
                "larger than %u bytes", EXEC_CONF_MAX_BYTES);
        free(buf);
        return 2;
      }
      char *grown = realloc(buf, cap * 2);
      if (grown == NULL)
        free(buf);
      buf = grown;
      cap *= 2;
      continue;
    }
    ssize_t n = read(fd, buf + got, cap - got);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      log_errno(LOG_LEVEL_ERROR, r->program, path, "read", errno, NULL);
      free(buf);
      return 2;
    }
    if (n == 0)
      break;
    got += (size_t)n;
  }
  *out = buf;
  *len = got;
  return 0;
}

/* Append `it` (moved: `it` is zeroed) read from file `file`. */
static int conf_append(struct exec_conf *c, struct cfg_item *it, size_t file) {
  struct cfg_item *items =
      realloc(c->items, (c->n_items + 1) * sizeof(*c->items));
  if (items != NULL)
    c->items = items;
  size_t *of = realloc(c->file_of, (c->n_items + 1) * sizeof(*c->file_of));
  if (of != NULL)
    c->file_of = of;
  if (items == NULL || of == NULL)
    return 1;
  c->items[c->n_items] = *it;
  c->file_of[c->n_items++] = file;
  memset(it, 0, sizeof(*it));
  return 0;
}

/* One Include item of `path`: what it names replaces it. */
static int conf_include(struct conf_read *r, const struct cfg_item *it,
                        const char *path, int depth) {
  char where[1100];
  snprintf(where, sizeof(where), "%s:%u", path, it->line);
  if (it->n_values != 1 || it->values[0].type != CFG_STRING) {
    log_msg(LOG_LEVEL_ERROR, r->program, where, "Include",
            "expected one string: a file, a directory or a glob");
    return 2;
  }
  const char *filter = NULL;
  for (size_t k = 0; k < it->n_children; k++) {
    const struct cfg_item *ch = &it->children[k];
    if (cfg_key_is(ch, "Filter") && ch->n_values == 1 &&
        ch->values[0].type == CFG_STRING)
      filter = ch->values[0].string;
    else
      log_msg(LOG_LEVEL_WARNING, r->program, where, ch->key,
              "not an option of <Include> (only Filter \"GLOB\"): ignored");
  }
  /* configfile.c: cf_read_generic refuses depth >= CF_MAX_DEPTH, the
   * file given being depth 0 */
  if (depth + 1 >= EXEC_CONF_MAX_DEPTH) {
    log_msg(LOG_LEVEL_ERROR, r->program, where, "Include",
            "\"%s\": more than %d files included inside each other "
            "(collectd's limit)",
            it->values[0].string, EXEC_CONF_MAX_DEPTH);
    return 2;
  }
  return conf_source(r, it->values[0].string, filter, depth + 1, CONF_INCLUDE,
                     /*may_glob=*/true);
}

/* A file: parse it, follow its Includes, keep its items. */
static int conf_file(struct conf_read *r, int fd, const char *path,
                     const struct stat *st, const char *filter, int depth) {
  if (filter != NULL) {
    const char *base = strrchr(path, '/');
    if (fnmatch(filter, base ? base + 1 : path, 0) != 0)
      return 0; /* collectd's cf_read_file: not matching the Filter */
  }
  if (r->n_opened++ >= EXEC_CONF_MAX_FILES) {
    log_msg(LOG_LEVEL_ERROR, r->program, path, "--config",
            "more than %u files to read", EXEC_CONF_MAX_FILES);
    return 2;
  }
  char *text = NULL, err[256];
  size_t len = 0;
  int rc = conf_slurp(r, fd, path, st, &text, &len);
  if (rc != 0)
    return rc;
  struct cfg_item *items = NULL;
  size_t n = 0;
  int prc = collectd_conf_parse(text, len, &items, &n, err, sizeof(err));
  free(text);
  if (prc < 0) {
    log_msg(LOG_LEVEL_ERROR, r->program, path, NULL, "%s", err);
    return prc == -ENOMEM ? 1 : 2;
  }
  struct exec_conf *c = r->c;
  char **files = realloc(c->files, (c->n_files + 1) * sizeof(*c->files));
  if (files != NULL)
    c->files = files;
  char *name = files ? strdup(path) : NULL;
  rc = name == NULL ? 1 : 0;
  if (rc == 0) {
    c->files[c->n_files++] = name;
    rc = conf_push(r, path, st);
  }
  bool pushed = rc == 0;
  size_t file = c->n_files - 1;
  for (size_t i = 0; i < n && rc == 0; i++) {
    if (cfg_key_is(&items[i], "Include"))
      rc = conf_include(r, &items[i], path, depth);
    else
      rc = conf_append(c, &items[i], file);
  }
  if (pushed)
    r->n_chain--;
  cfg_items_free(items, n); /* what was not moved */
  return rc;
}

static int conf_name_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names `names` (n) under `dir`: each read in turn; frees them. */
static int conf_names(struct conf_read *r, const char *dir, char **names,
                      size_t n, const char *filter, int depth,
                      enum conf_how how) {
  qsort(names, n, sizeof(*names), conf_name_cmp);
  int rc = 0;
  for (size_t k = 0; k < n; k++) {
    if (rc == 0) {
      char path[4096];
      int len = dir ? snprintf(path, sizeof(path), "%s/%s", dir, names[k])
                    : snprintf(path, sizeof(path), "%s", names[k]);
      if (len < 0 || (size_t)len >= sizeof(path)) {
        log_msg(LOG_LEVEL_ERROR, r->program, dir ? dir : names[k], "--config",
                "a name in it is too long");
        rc = 2;
      } else
        rc = conf_source(r, path, filter, depth, how, /*may_glob=*/false);
    }
    free(names[k]);
  }
  free(names);
  return rc;
}

/* A directory, as collectd's cf_read_dir: every entry but the hidden
 * ones, sorted, files read and directories descended. Takes `fd`. */
static int conf_dir(struct conf_read *r, int fd, const char *path,
                    const struct stat *st, const char *filter, int depth) {
  int rc = conf_push(r, path, st);
  DIR *d = rc == 0 ? fdopendir(fd) : NULL;
  if (d == NULL) {
    if (rc == 0)
      log_errno(LOG_LEVEL_ERROR, r->program, path, "opendir", errno, NULL);
    close(fd);
    if (rc == 0)
      r->n_chain--;
    return rc ? rc : 2;
  }
  char **names = NULL;
  size_t n = 0;
  struct dirent *e;
  while (rc == 0 && (e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.' || e->d_name[0] == '\0')
      continue; /* collectd skips hidden names */
    char **grown = n < EXEC_CONF_MAX_FILES
                       ? realloc(names, (n + 1) * sizeof(*names))
                       : NULL;
    if (grown != NULL)
      names = grown;
    if (grown == NULL || (names[n] = strdup(e->d_name)) == NULL) {
      log_msg(LOG_LEVEL_ERROR, r->program, path, "--config",
              n < EXEC_CONF_MAX_FILES ? "out of memory"
                                      : "more than %u entries",
              EXEC_CONF_MAX_FILES);
      rc = n < EXEC_CONF_MAX_FILES ? 1 : 2;
    } else
      n++;
  }
  closedir(d);
  if (rc == 0)
    rc = conf_names(r, path, names, n, filter, depth, CONF_ENTRY);
  else {
    for (size_t k = 0; k < n; k++)
      free(names[k]);
    free(names);
  }
  r->n_chain--;
  return rc;
}

/* A glob the shell did not expand (or an Include's): its matches in
 * strcmp order. */
static int conf_glob(struct conf_read *r, const char *pattern,
                     const char *filter, int depth, enum conf_how how) {
  glob_t g;
  int grc = glob(pattern, GLOB_NOSORT, NULL, &g);
  if (grc == GLOB_NOMATCH) {
    globfree(&g);
    log_msg(how == CONF_GIVEN ? LOG_LEVEL_ERROR : LOG_LEVEL_WARNING, r->program,
            pattern, how == CONF_GIVEN ? "--config" : "Include",
            "matches no file%s", how == CONF_GIVEN ? "" : ": nothing included");
    return how == CONF_GIVEN ? 2 : 0;
  }
  if (grc != 0) {
    globfree(&g);
    log_errno(LOG_LEVEL_ERROR, r->program, pattern, "glob",
              grc == GLOB_NOSPACE ? ENOMEM : EIO, NULL);
    return 2;
  }
  char **names = calloc(g.gl_pathc ? g.gl_pathc : 1, sizeof(*names));
  size_t n = 0;
  for (size_t k = 0; names != NULL && k < g.gl_pathc; k++)
    if ((names[n] = strdup(g.gl_pathv[k])) != NULL)
      n++;
  bool ok = names != NULL && n == g.gl_pathc;
  globfree(&g);
  if (!ok) {
    for (size_t k = 0; k < n; k++)
      free(names[k]);
    free(names);
    log_errno(LOG_LEVEL_ERROR, r->program, pattern, "glob", ENOMEM, NULL);
    return 1;
  }
  return conf_names(r, NULL, names, n, filter, depth, CONF_ENTRY);
}

static int conf_source(struct conf_read *r, const char *path,
                       const char *filter, int depth, enum conf_how how,
                       bool may_glob) {
  int fd;
  struct stat st;
  int orc = conf_open(path, &fd, &st);
  if (orc == -ENOENT && may_glob && strpbrk(path, "*?[") != NULL)
    return conf_glob(r, path, filter, depth, how);
  if (orc < 0) {
    bool soft = how != CONF_GIVEN && orc == -ENOENT;
    if (soft)
      log_msg(LOG_LEVEL_WARNING, r->program, path, "Include",
              "No such file or directory: nothing included (as collectd)");
    else
      log_errno(LOG_LEVEL_ERROR, r->program, path, "open", -orc, NULL);
    return soft ? 0 : 2;
  }
  if (S_ISDIR(st.st_mode))
    return conf_dir(r, fd, path, &st, filter, depth); /* takes fd */
  int rc;
  if (S_ISREG(st.st_mode) ||
      (S_ISFIFO(st.st_mode) && how == CONF_GIVEN && conf_is_descriptor(path)))
    rc = conf_file(r, fd, path, &st, filter, depth);
  else if (how == CONF_ENTRY) {
    log_msg(LOG_LEVEL_WARNING, r->program, path, "--config",
            "neither a file nor a directory: skipped (as collectd)");
    rc = 0;
  } else {
    log_msg(LOG_LEVEL_ERROR, r->program, path,
            how == CONF_GIVEN ? "--config" : "Include",
            "not a file or a directory (%s): only -, /dev/fd/N and "
            "/proc/self/fd/N are read as pipes",
            S_ISFIFO(st.st_mode)   ? "a FIFO"
            : S_ISSOCK(st.st_mode) ? "a socket"
                                   : "a device");
    rc = 2;
  }
  close(fd);
  return rc;
}

int exec_conf_read(struct exec_conf *c, const char *program,
                   const char *const *sources, size_t n) {
  memset(c, 0, sizeof(*c));
  struct conf_read r = {.c = c, .program = program};
  int rc = 0;
  for (size_t k = 0; k < n && rc == 0; k++)
    rc = conf_source(&r, sources[k], NULL, 0, CONF_GIVEN, /*may_glob=*/true);
  return rc;
}

const char *exec_conf_where(const struct exec_conf *c, size_t i, unsigned line,
                            char *out, size_t size) {
  snprintf(out, size, "%s:%u", c->files[c->file_of[i]],
           line ? line : c->items[i].line);
  return out;
}

void exec_conf_fini(struct exec_conf *c) {
  cfg_items_free(c->items, c->n_items);
  free(c->file_of);
  for (size_t k = 0; k < c->n_files; k++)
    free(c->files[k]);
  free(c->files);
  memset(c, 0, sizeof(*c));
}
