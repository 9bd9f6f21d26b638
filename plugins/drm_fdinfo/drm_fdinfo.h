/*
 * drm_fdinfo.h: public face of the drm_fdinfo plugin core.
 *
 * The hosts only need drm_fdinfo_ops. Tests additionally inject clocks so
 * utilisation is computed over exact, known intervals without sleeping.
 */
#ifndef PLUGINS_DRM_FDINFO_H
#define PLUGINS_DRM_FDINFO_H

#include "common/core/plugin.h"

#include <stdint.h>

extern const struct plugin_ops drm_fdinfo_ops;

/* Clock returning nanoseconds. */
typedef uint64_t (*dfi_clock_fn)(void *ctx);

/* Replace the CLOCK_MONOTONIC source (used for Δt between reads of one
 * client) and the CLOCK_REALTIME source (record timestamps). `ctx` is
 * passed back to both. For tests. */
void dfi_set_clocks(void *inst, dfi_clock_fn mono, dfi_clock_fn real,
                    void *ctx);

#endif
