/*
 * container_state.c: Docker's and Podman's container names
 * (container_state.h), decoded with yajl's event parser so a large
 * containers.json is walked without building a tree.
 */
#include "common/container/container_state.h"
#include "common/core/text.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#define CS_DEPTH_MAX 64 /* deeper documents are refused */

struct cs_state {
  int depth;      /* 1 inside the top-level value */
  bool key_match; /* the last key at the depth we watch is ours */
  int want;       /* which member: 0 Name (docker), 1 id, 2 names */
  bool podman;    /* containers.json: top-level array of objects */
  bool too_deep;
  bool names_open; /* inside the "names" array of the current entry */
  char id[CGROUP_ID_HEX_LEN + 1];
  char name[CONTAINER_NAME_MAX + 1];
  container_state_each_fn *fn;
  void *arg;
};

static void cs_name(char *out, const unsigned char *s, size_t len) {
  text_sanitize(out, CONTAINER_NAME_MAX + 1, (const char *)s, len);
}

static int cs_string(void *ctx, const unsigned char *s, size_t len) {
  struct cs_state *st = ctx;
  if (!st->podman) {
    if (st->depth == 1 && st->key_match) {
      if (len > 0 && s[0] == '/')
        s++, len--;
      cs_name(st->name, s, len);
    }
    st->key_match = false;
    return 1;
  }
  if (st->depth == 2 && st->key_match && st->want == 1) {
    if (cgroup_id_is_hex64((const char *)s, len)) {
      memcpy(st->id, s, len);
      st->id[len] = '\0';
    }
  } else if (st->depth == 3 && st->names_open && st->name[0] == '\0') {
    cs_name(st->name, s, len);
  }
  if (st->depth == 2)
    st->key_match = false;
  return 1;
}

static int cs_scalar(void *ctx) {
  struct cs_state *st = ctx;
  if ((st->podman && st->depth == 2) || (!st->podman && st->depth == 1))
    st->key_match = false;
  return 1;
}
static int cs_null(void *ctx) { return cs_scalar(ctx); }
static int cs_bool(void *ctx, int b) {
  (void)b;
  return cs_scalar(ctx);
}
static int cs_number(void *ctx, const char *s, size_t len) {
  (void)s, (void)len;
  return cs_scalar(ctx);
}

static int cs_key(void *ctx, const unsigned char *key, size_t len) {
  struct cs_state *st = ctx;
  if (!st->podman && st->depth == 1) {
    st->key_match = len == 4 && memcmp(key, "Name", 4) == 0;
  } else if (st->podman && st->depth == 2) {
    st->key_match = false;
    if (len == 2 && memcmp(key, "id", 2) == 0)
      st->key_match = true, st->want = 1;
    else if (len == 5 && memcmp(key, "names", 5) == 0)
      st->key_match = true, st->want = 2;
  }
  return 1;
}

static int cs_open(struct cs_state *st, bool array) {
  if (st->depth >= CS_DEPTH_MAX) {
    st->too_deep = true;
    return 0;
  }
  if (st->podman && st->depth == 0 && !array)
    return 0; /* containers.json is an array */
  if (!st->podman && st->depth == 0 && array)
    return 0; /* config.v2.json is an object */
  if (st->podman && st->depth == 1) {
    if (array)
      return 0;
    st->id[0] = st->name[0] = '\0';
  }
  if (st->podman && st->depth == 2 && array && st->key_match && st->want == 2)
    st->names_open = true;
  if ((st->podman && st->depth == 2) || (!st->podman && st->depth == 1))
    st->key_match = false;
  st->depth++;
  return 1;
}

static int cs_close(struct cs_state *st) {
  st->depth--;
  if (st->podman && st->depth == 2)
    st->names_open = false;
  if (st->podman && st->depth == 1) {
    if (st->id[0] && st->name[0])
      st->fn(st->id, st->name, st->arg);
    st->id[0] = st->name[0] = '\0';
  }
  return 1;
}

static int cs_start_map(void *ctx) { return cs_open(ctx, false); }
static int cs_end_map(void *ctx) { return cs_close(ctx); }
static int cs_start_array(void *ctx) { return cs_open(ctx, true); }
static int cs_end_array(void *ctx) { return cs_close(ctx); }

static const yajl_callbacks cs_callbacks = {
    cs_null,      cs_bool, NULL,       NULL,           cs_number,   cs_string,
    cs_start_map, cs_key,  cs_end_map, cs_start_array, cs_end_array};

static int cs_run(struct cs_state *st, const char *json, size_t len) {
  yajl_handle h = yajl_alloc(&cs_callbacks, NULL, st);
  if (h == NULL)
    return -ENOMEM;
  yajl_status s = yajl_parse(h, (const unsigned char *)json, len);
  if (s == yajl_status_ok)
    s = yajl_complete_parse(h);
  yajl_free(h);
  return s == yajl_status_ok ? 0 : -EINVAL;
}

int container_state_docker_name(const char *json, size_t len,
                                char name[CONTAINER_NAME_MAX + 1]) {
  struct cs_state st = {0};
  name[0] = '\0';
  int rc = cs_run(&st, json, len);
  if (rc < 0)
    return rc;
  if (st.name[0] == '\0')
    return -ENOENT;
  memcpy(name, st.name, strlen(st.name) + 1);
  return 0;
}

int container_state_podman_each(const char *json, size_t len,
                                container_state_each_fn *fn, void *arg) {
  struct cs_state st = {.podman = true, .fn = fn, .arg = arg};
  return cs_run(&st, json, len);
}
