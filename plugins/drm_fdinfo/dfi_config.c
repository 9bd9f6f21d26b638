/*
 * dfi_config.c: the drm_fdinfo options (plugins/drm_fdinfo/README.md,
 * "Options", lists them with their defaults). Config never touches /proc or
 * /sys; roots are only remembered here and opened at init.
 */
#include "common/core/cfg.h"
#include "plugins/drm_fdinfo/dfi.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Every key dfi_config_apply() takes, with dfi_config_defaults()' values. */
const struct cfg_option dfi_options[] = {
    {"ReportBy", "Device Process",
     "Device, Process, Client, Cgroup or Container; repeatable"},
    {"ProcessMatch", "all", "extended regex on the process name (comm)"},
    {"Driver", "all", "only this drm-driver name; repeatable"},
    {"Device", "all", "only this device (PCI address, platform or minor name)"},
    {"MaxClients", "4096", "clients tracked, 1 to 1000000"},
    {"MaxProcesses", "256", "process series per device, 1 to 1000000"},
    {"FullScanInterval", "auto",
     "seconds over which every process is walked (auto: 3600 with fd "
     "counts, 30 without)"},
    {"FdCountInterval", "60",
     "seconds over which every process's fd count is looked at"},
    {"FdCount", "auto", "auto, true or false: st_size of /proc/PID/fd counts"},
    {"UseDebugfs", "true", "find new clients through debugfs (root)"},
    {"WakeSuspended", "false", "read runtime-suspended xe devices"},
    {"EnableProfiling", "false", "set the panfrost/panthor profiling switch"},
    {"ProcRoot", "/proc", "where /proc is"},
    {"SysfsRoot", "/sys", "where /sys is"},
    {"DebugfsRoot", "/sys/kernel/debug", "where debugfs is"},
    {"DevRoot", "/dev", "where the dri and accel nodes are (watched)"},
    {"PodLogRoot", "/var/log/pods",
     "the kubelet's pod log directories (pod and namespace names)"},
    {"ContainerLogRoot", "/var/log/containers",
     "the kubelet's container log links (container names)"},
    {"DockerRoot", "/var/lib/docker", "Docker's state (container names)"},
    {"PodmanRoot", "/var/lib/containers/storage",
     "Podman's container store (container names)"},
    {NULL, NULL, NULL}};

void dfi_config_defaults(struct dfi_config *cfg) {
  memset(cfg, 0, sizeof(*cfg));
  cfg->max_clients = 4096;
  cfg->max_processes = 256;
  cfg->full_scan_interval_s = -1; /* auto: see dfi_fd_count_detect */
  cfg->fd_count_interval_s = 60.0;
  cfg->fd_count = -1;
  cfg->use_debugfs = true;
}

void dfi_config_fini(struct dfi_config *cfg) {
  free(cfg->proc_root);
  free(cfg->sysfs_root);
  free(cfg->debugfs_root);
  free(cfg->dev_root);
  free(cfg->pod_log_root);
  free(cfg->container_log_root);
  free(cfg->docker_root);
  free(cfg->podman_root);
  if (cfg->has_process_match)
    regfree(&cfg->process_match);
  dev_filter_fini(&cfg->filter);
  memset(cfg, 0, sizeof(*cfg));
}

static int dfi_config_path(const struct cfg_item *item, char **slot) {
  const char *value;
  int rc = cfg_get_string(DFI_PLUGIN, item, &value);
  if (rc < 0)
    return rc;
  if (value[0] == '\0') {
    log_msg(LOG_LEVEL_ERROR, DFI_PLUGIN, "config", item->key,
            "expected a directory, got an empty string");
    return -EINVAL;
  }
  char *copy = strdup(value);
  if (copy == NULL)
    return -ENOMEM;
  free(*slot);
  *slot = copy;
  return 0;
}

/* Keys taking one or more strings on one line, repeatable. */
static int dfi_config_report_by(struct dfi_config *cfg,
                                const struct cfg_item *item) {
  static const struct {
    const char *name;
    unsigned bit;
  } scopes[] = {{"Device", DFI_SCOPE_DEVICE},
                {"Process", DFI_SCOPE_PROCESS},
                {"Client", DFI_SCOPE_CLIENT},
                {"Cgroup", DFI_SCOPE_CGROUP},
                {"Container", DFI_SCOPE_CONTAINER}};
  if (item->n_values == 0) {
    log_msg(LOG_LEVEL_ERROR, DFI_PLUGIN, "config", item->key,
            "expected Device, Process, Client, Cgroup or Container");
    return -EINVAL;
  }
  for (size_t i = 0; i < item->n_values; i++) {
    const struct cfg_value *v = &item->values[i];
    unsigned bit = 0;
    for (size_t k = 0;
         v->type == CFG_STRING && k < sizeof(scopes) / sizeof(scopes[0]); k++)
      if (strcasecmp(v->string, scopes[k].name) == 0)
        bit = scopes[k].bit;
    if (bit == 0) {
      log_msg(LOG_LEVEL_ERROR, DFI_PLUGIN, "config", item->key,
              "expected Device, Process, Client, Cgroup or Container, got "
              "\"%s\"",
              v->type == CFG_STRING ? v->string : "(not a string)");
      return -EINVAL;
    }
    cfg->report_by |= bit;
  }
  return 0;
}

static int dfi_config_regex(struct dfi_config *cfg,
                            const struct cfg_item *item) {
  const char *pattern;
  int rc = cfg_get_string(DFI_PLUGIN, item, &pattern);
  if (rc < 0)
    return rc;
  regex_t re;
  rc = regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB);
  if (rc != 0) {
    char why[128];
    regerror(rc, &re, why, sizeof(why));
    log_msg(LOG_LEVEL_ERROR, DFI_PLUGIN, "config", item->key,
            "invalid regular expression \"%s\": %s", pattern, why);
    return -EINVAL;
  }
  if (cfg->has_process_match)
    regfree(&cfg->process_match);
  cfg->process_match = re;
  cfg->has_process_match = true;
  return 0;
}

/* FdCount auto|true|false: whether st_size of /proc/<pid>/fd is the
 * process's fd count (Linux 6.2+); auto asks the kernel at init. */
static int dfi_config_fd_count(struct dfi_config *cfg,
                               const struct cfg_item *item) {
  const char *value;
  if (item->n_values == 1 && item->values[0].type == CFG_BOOLEAN) {
    cfg->fd_count = item->values[0].boolean;
    return 0;
  }
  int rc = cfg_get_string(DFI_PLUGIN, item, &value);
  if (rc < 0)
    return rc;
  if (strcasecmp(value, "auto") == 0)
    cfg->fd_count = -1;
  else if (strcasecmp(value, "true") == 0)
    cfg->fd_count = 1;
  else if (strcasecmp(value, "false") == 0)
    cfg->fd_count = 0;
  else {
    log_msg(LOG_LEVEL_ERROR, DFI_PLUGIN, "config", item->key,
            "expected auto, true or false, got \"%s\"", value);
    return -EINVAL;
  }
  return 0;
}

/* FullScanInterval auto|seconds: auto (-1) is decided at init by whether
 * the kernel reports fd counts. */
static int dfi_config_full_scan(struct dfi_config *cfg,
                                const struct cfg_item *item) {
  if (item->n_values == 1 && item->values[0].type == CFG_STRING &&
      strcasecmp(item->values[0].string, "auto") == 0) {
    cfg->full_scan_interval_s = -1;
    return 0;
  }
  return cfg_get_double(DFI_PLUGIN, item, 0, 86400, &cfg->full_scan_interval_s);
}

int dfi_config_apply(struct dfi_config *cfg, const struct cfg_item *item) {
  if (cfg_key_is(item, "ProcRoot"))
    return dfi_config_path(item, &cfg->proc_root);
  if (cfg_key_is(item, "SysfsRoot"))
    return dfi_config_path(item, &cfg->sysfs_root);
  if (cfg_key_is(item, "DebugfsRoot"))
    return dfi_config_path(item, &cfg->debugfs_root);
  if (cfg_key_is(item, "DevRoot"))
    return dfi_config_path(item, &cfg->dev_root);
  if (cfg_key_is(item, "PodLogRoot"))
    return dfi_config_path(item, &cfg->pod_log_root);
  if (cfg_key_is(item, "ContainerLogRoot"))
    return dfi_config_path(item, &cfg->container_log_root);
  if (cfg_key_is(item, "DockerRoot"))
    return dfi_config_path(item, &cfg->docker_root);
  if (cfg_key_is(item, "PodmanRoot"))
    return dfi_config_path(item, &cfg->podman_root);
  if (cfg_key_is(item, "ReportBy"))
    return dfi_config_report_by(cfg, item);
  if (cfg_key_is(item, "ProcessMatch"))
    return dfi_config_regex(cfg, item);
  int rc;
  if (dev_filter_configure(&cfg->filter, DFI_PLUGIN, item, &rc))
    return rc;
  if (cfg_key_is(item, "MaxClients"))
    return cfg_get_u64(DFI_PLUGIN, item, 1, 1000000, &cfg->max_clients);
  if (cfg_key_is(item, "MaxProcesses"))
    return cfg_get_u64(DFI_PLUGIN, item, 1, 1000000, &cfg->max_processes);
  if (cfg_key_is(item, "FullScanInterval"))
    return dfi_config_full_scan(cfg, item);
  if (cfg_key_is(item, "FdCountInterval"))
    return cfg_get_double(DFI_PLUGIN, item, 0, 86400,
                          &cfg->fd_count_interval_s);
  if (cfg_key_is(item, "FdCount"))
    return dfi_config_fd_count(cfg, item);
  if (cfg_key_is(item, "UseDebugfs"))
    return cfg_get_bool(DFI_PLUGIN, item, &cfg->use_debugfs);
  if (cfg_key_is(item, "WakeSuspended"))
    return cfg_get_bool(DFI_PLUGIN, item, &cfg->wake_suspended);
  if (cfg_key_is(item, "EnableProfiling"))
    return cfg_get_bool(DFI_PLUGIN, item, &cfg->enable_profiling);
  return cfg_unknown(DFI_PLUGIN, item);
}
