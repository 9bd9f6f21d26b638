/*
 * drm_fdinfo.h: public face of the drm_fdinfo plugin core.
 *
 * The hosts only need drm_fdinfo_ops. Tests inject clocks through the host
 * context (plugin_host.h), so utilisation is computed over exact, known
 * intervals without sleeping.
 */
#ifndef PLUGINS_DRM_FDINFO_H
#define PLUGINS_DRM_FDINFO_H

#include "common/core/plugin.h"

extern const struct plugin_ops drm_fdinfo_ops;

#endif
