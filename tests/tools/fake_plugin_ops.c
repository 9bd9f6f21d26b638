/*
 * fake_plugin_ops.c: the fake plugin core (see fake_plugin_ops.h). It
 * follows the plugin.h contract like a real core: config only stores,
 * init validates, read writes records, instance_free undoes (here: leaves
 * a marker so tests can see that it ran).
 */
#include "tests/tools/fake_plugin_ops.h"
#include "common/core/log.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define FK_PLUGIN "fake_plugin"
#define FK_MAX_FIELDS 48

struct fk_field {
  char *name;  /* owned */
  char *ctype; /* owned */
  uint64_t value;
};

struct fk_instance {
  char *label;       /* owned */
  char *tag;         /* owned, NULL: no tag */
  char *free_marker; /* owned path, NULL: none */
  char *hang;        /* owned FIFO path, NULL: reads do not block */
  char *init_hang;   /* owned FIFO path, NULL: init does not block */
  uint64_t step;
  bool fail_init;
  bool fail_read;
  bool bad_types;
  bool no_tags;
  struct fk_field fields[FK_MAX_FIELDS];
  size_t n_fields;
  uint64_t extra; /* ExtraFields: x0, x1, ... (past the record's capacity) */
  char (*extra_names)[8]; /* owned, made at init */
  uint64_t reads;
  bool report_host;               /* ReportHost */
  double drain_s;                 /* DrainInterval, 0: no drain hook */
  double read_delay_s;            /* ReadDelay: each read sleeps so long */
  const struct plugin_host *host; /* from init */
  atomic_uint_fast64_t drains;
  atomic_uint_fast64_t overlaps; /* read and drain ran at the same time */
  atomic_bool busy;
};

static void *fk_instance_new(const char *label) {
  struct fk_instance *fk = calloc(1, sizeof(*fk));
  if (fk == NULL)
    return NULL;
  fk->label = strdup(label);
  if (fk->label == NULL) {
    free(fk);
    return NULL;
  }
  fk->step = 1;
  return fk;
}

static int fk_set_string(const struct cfg_item *item, char **slot) {
  const char *value;
  int rc = cfg_get_string(FK_PLUGIN, item, &value);
  if (rc < 0)
    return rc;
  char *copy = strdup(value);
  if (copy == NULL)
    return -ENOMEM;
  free(*slot);
  *slot = copy;
  return 0;
}

/* <Field "name"> Value N; Type T </Field> */
static int fk_configure_field(struct fk_instance *fk,
                              const struct cfg_item *item) {
  const char *name;
  if (item->n_values != 1 || item->values[0].type != CFG_STRING) {
    log_msg(LOG_LEVEL_ERROR, FK_PLUGIN, "config", item->key,
            "expected one string (the field name)");
    return -EINVAL;
  }
  name = item->values[0].string;
  if (fk->n_fields == FK_MAX_FIELDS) {
    log_msg(LOG_LEVEL_ERROR, FK_PLUGIN, "config", item->key,
            "at most %d fields", FK_MAX_FIELDS);
    return -EINVAL;
  }
  struct fk_field f = {.value = 0};
  int rc = 0;
  for (size_t i = 0; i < item->n_children && rc == 0; i++) {
    const struct cfg_item *child = &item->children[i];
    if (cfg_key_is(child, "Value"))
      rc = cfg_get_u64(FK_PLUGIN, child, 0, INT64_MAX / 2, &f.value);
    else if (cfg_key_is(child, "Type"))
      rc = fk_set_string(child, &f.ctype);
    else
      rc = cfg_unknown(FK_PLUGIN, child);
  }
  if (rc == 0 && f.ctype == NULL && (f.ctype = strdup("gauge")) == NULL)
    rc = -ENOMEM;
  if (rc == 0 && (f.name = strdup(name)) == NULL)
    rc = -ENOMEM;
  if (rc < 0) {
    free(f.ctype);
    free(f.name);
    return rc;
  }
  fk->fields[fk->n_fields++] = f;
  return 0;
}

static int fk_configure(void *inst, const struct cfg_item *item) {
  struct fk_instance *fk = inst;
  if (cfg_key_is(item, "Step"))
    return cfg_get_u64(FK_PLUGIN, item, 0, 1000000000, &fk->step);
  if (cfg_key_is(item, "Tag"))
    return fk_set_string(item, &fk->tag);
  if (cfg_key_is(item, "FreeMarker"))
    return fk_set_string(item, &fk->free_marker);
  if (cfg_key_is(item, "Hang"))
    return fk_set_string(item, &fk->hang);
  if (cfg_key_is(item, "InitHang"))
    return fk_set_string(item, &fk->init_hang);
  if (cfg_key_is(item, "FailInit"))
    return cfg_get_bool(FK_PLUGIN, item, &fk->fail_init);
  if (cfg_key_is(item, "FailRead"))
    return cfg_get_bool(FK_PLUGIN, item, &fk->fail_read);
  if (cfg_key_is(item, "BadTypes"))
    return cfg_get_bool(FK_PLUGIN, item, &fk->bad_types);
  if (cfg_key_is(item, "NoTags"))
    return cfg_get_bool(FK_PLUGIN, item, &fk->no_tags);
  if (cfg_key_is(item, "Field"))
    return fk_configure_field(fk, item);
  if (cfg_key_is(item, "ReportHost"))
    return cfg_get_bool(FK_PLUGIN, item, &fk->report_host);
  if (cfg_key_is(item, "ReadDelay"))
    return cfg_get_double(FK_PLUGIN, item, 0, 10, &fk->read_delay_s);
  if (cfg_key_is(item, "DrainInterval"))
    return cfg_get_double(FK_PLUGIN, item, 0.001, 3600, &fk->drain_s);
  if (cfg_key_is(item, "ExtraFields"))
    return cfg_get_u64(FK_PLUGIN, item, 0, 1000, &fk->extra);
  return cfg_unknown(FK_PLUGIN, item);
}

static void fk_hang_on(const char *fifo);

static int fk_init(void *inst, const struct plugin_host *host) {
  struct fk_instance *fk = inst;
  fk->host = host;
  if (fk->init_hang != NULL) /* a device that never answers at start */
    fk_hang_on(fk->init_hang);
  if (fk->fail_init) {
    log_msg(LOG_LEVEL_ERROR, FK_PLUGIN, fk->label, "init", "FailInit is set");
    return -EIO;
  }
  if (fk->extra > 0) {
    fk->extra_names = calloc(fk->extra, sizeof(*fk->extra_names));
    if (fk->extra_names == NULL)
      return -ENOMEM;
    for (uint64_t i = 0; i < fk->extra; i++)
      snprintf(fk->extra_names[i], sizeof(fk->extra_names[i]), "x%u",
               (unsigned)(i % 10000));
  }
  log_msg(LOG_LEVEL_INFO, FK_PLUGIN, fk->label, "init", "step %" PRIu64,
          fk->step);
  return 0;
}

/* Note when read and drain overlap, which the hosts must prevent. */
static void fk_enter(struct fk_instance *fk) {
  if (atomic_exchange(&fk->busy, true))
    atomic_fetch_add(&fk->overlaps, 1);
}

static void fk_leave(struct fk_instance *fk) { atomic_store(&fk->busy, false); }

static int fk_drain(void *inst) {
  struct fk_instance *fk = inst;
  fk_enter(fk);
  atomic_fetch_add(&fk->drains, 1);
  fk_leave(fk);
  return 0;
}

static uint64_t fk_drain_interval_ns(void *inst) {
  const struct fk_instance *fk = inst;
  return (uint64_t)(fk->drain_s * 1e9);
}

static int fk_read_locked(struct fk_instance *fk, struct metric_sink *sink);

static int fk_read(void *inst, struct metric_sink *sink) {
  struct fk_instance *fk = inst;
  fk_enter(fk);
  int rc = fk_read_locked(fk, sink);
  fk_leave(fk);
  return rc;
}

/* Hang: wait for one byte from the FIFO, as a read of a hung device's
 * sysfs file waits for the driver. */
static void fk_hang_on(const char *fifo) {
  int fd = open(fifo, O_RDONLY | O_CLOEXEC);
  char byte;
  if (fd < 0) {
    log_errno(LOG_LEVEL_ERROR, FK_PLUGIN, fifo, "open", errno, NULL);
    return;
  }
  while (read(fd, &byte, 1) < 0 && errno == EINTR)
    ;
  close(fd);
}

static void fk_hang(const struct fk_instance *fk) { fk_hang_on(fk->hang); }

static int fk_read_locked(struct fk_instance *fk, struct metric_sink *sink) {
  if (fk->hang != NULL)
    fk_hang(fk);
  fk->reads++;
  if (fk->read_delay_s > 0) { /* a slow read (the live view's keys) */
    struct timespec d = {
        (time_t)fk->read_delay_s,
        (long)((fk->read_delay_s - (double)(time_t)fk->read_delay_s) * 1e9)};
    while (nanosleep(&d, &d) != 0 && errno == EINTR)
      ;
  }
  if (fk->fail_read) {
    log_errno(LOG_LEVEL_ERROR, FK_PLUGIN, fk->label, "read", EIO, NULL);
    return -EIO;
  }
  uint64_t counter = fk->reads * fk->step;
  log_msg(LOG_LEVEL_DEBUG, FK_PLUGIN, fk->label, "read", "counter %" PRIu64,
          counter);
  struct metric m;
  metric_init(&m, "fake", plugin_host_realtime_ns(fk->host));
  if (!fk->no_tags) {
    metric_add_tag(&m, "instance", fk->label);
    metric_add_tag(&m, "tag", fk->tag);
  }
  metric_add_int(&m, "counter", "derive", counter);
  metric_add_int(&m, "reads", "count", fk->reads);
  metric_add_float(&m, "half", "gauge", (double)counter / 2);
  /* metric_add_int takes unsigned values: a negative one by hand. */
  m.fields[m.n_fields++] = (struct metric_field){.key = "debt",
                                                 .ctype = "counter",
                                                 .kind = METRIC_INT,
                                                 .v.i = -(int64_t)counter};
  for (size_t i = 0; i < fk->n_fields; i++)
    metric_add_int(&m, fk->fields[i].name, fk->fields[i].ctype,
                   fk->fields[i].value);
  if (fk->report_host)
    metric_add_int(&m, "interval_ns", "gauge", fk->host->interval_ns);
  if (fk->drain_s > 0) {
    metric_add_int(&m, "drains", "count", atomic_load(&fk->drains));
    metric_add_int(&m, "overlaps", "count", atomic_load(&fk->overlaps));
  }
  if (fk->bad_types) {
    metric_add_int(&m, "nosuch", "fake_no_such_type", 1);
    metric_add_int(&m, "pair", "io_octets", 1);
    metric_add_int(&m, "unitless", "fake_unitless", 1);
  }
  /* No check per add: an overflow is the host's to report (metric.h). */
  for (uint64_t i = 0; i < fk->extra; i++)
    metric_add_int(&m, fk->extra_names[i], "count", i);
  return metric_sink_write(sink, &m);
}

static void fk_instance_free(void *inst) {
  struct fk_instance *fk = inst;
  if (fk == NULL)
    return;
  if (fk->free_marker != NULL) {
    int fd =
        open(fk->free_marker, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
      log_errno(LOG_LEVEL_ERROR, FK_PLUGIN, fk->free_marker, "open", errno,
                NULL);
    else {
      dprintf(fd, "freed %s reads=%" PRIu64 "\n", fk->label, fk->reads);
      close(fd);
    }
  }
  for (size_t i = 0; i < fk->n_fields; i++) {
    free(fk->fields[i].name);
    free(fk->fields[i].ctype);
  }
  free(fk->extra_names);
  free(fk->free_marker);
  free(fk->hang);
  free(fk->init_hang);
  free(fk->tag);
  free(fk->label);
  free(fk);
}

/* The fake plugin's own field types: collectd's standard types it uses to
 * test the host (each one unit here), and two that collectd cannot
 * dispatch (no such type; two data sources). BadTypes also adds a field
 * of type "fake_unitless", which has no row: the hosts refuse it. */
static const struct metric_unit fk_units[] = {
    {"derive", METRIC_DS_DERIVE, "", "", 1.0, "the fake counter"},
    {"count", METRIC_DS_GAUGE, "", "", 1.0, "a count now"},
    {"gauge", METRIC_DS_GAUGE, "", "", 1.0, "a value now"},
    {"counter", METRIC_DS_DERIVE, "", "", 1.0, "a negative counter"},
    {"fake_no_such_type", METRIC_DS_GAUGE, "", "", 1.0, "not in types.db"},
    {"io_octets", METRIC_DS_DERIVE, "B", "bytes", 1.0, "two data sources"},
    {NULL, METRIC_DS_GAUGE, NULL, NULL, 0, NULL},
};

/* The keys fk_configure() takes, for --help (tests/e2e/exec_host.sh). */
static const struct cfg_option fk_options[] = {
    {"Step", "1", "the counter's step per read"},
    {"Tag", "none", "the tag's value"},
    {"FreeMarker", "none", "file instance_free appends to"},
    {"FailInit", "false", "init fails"},
    {"FailRead", "false", "every read fails"},
    {"BadTypes", "false", "add fields of unknown collectd types"},
    {"NoTags", "false", "records without tags"},
    {"Field", "none", "an extra field, by name"},
    {"Field.Value", "none", "the field's value"},
    {"Field.Type", "none", "the field's collectd type"},
    {"ReportHost", "false", "add interval_ns"},
    {"DrainInterval", "none", "seconds between drains"},
    {"ExtraFields", "0", "fields x0, x1, ... past the capacity"},
    {"Hang", "none", "a FIFO each read waits on for a byte"},
    {"InitHang", "none", "a FIFO init waits on for a byte"},
    {"ReadDelay", "0", "seconds each read sleeps"},
    {NULL, NULL, NULL}};

const struct plugin_ops fake_plugin_ops = {
    .name = FK_PLUGIN,
    .options = fk_options,
    .instance_new = fk_instance_new,
    .configure = fk_configure,
    .init = fk_init,
    .read = fk_read,
    .drain = fk_drain,
    .drain_interval_ns = fk_drain_interval_ns,
    .units = fk_units,
    .instance_free = fk_instance_free,
};

const struct plugin_ops fake_other_ops = {
    .name = "fake_other",
    .options = fk_options,
    .instance_new = fk_instance_new,
    .configure = fk_configure,
    .init = fk_init,
    .read = fk_read,
    .drain = fk_drain,
    .drain_interval_ns = fk_drain_interval_ns,
    .units = fk_units,
    .instance_free = fk_instance_free,
};
