/*
 * oa_recorder.h: igt's i915-perf-recorder files, version 1 (igt
 * lib/i915/perf_data.h: struct intel_perf_record_device_info and the
 * INTEL_PERF_RECORD_TYPE_* values): a sequence of records with the
 * stream's 8-byte header (i915_drm.h: struct drm_i915_perf_record_header);
 * kernel records (SAMPLE, REPORT_LOST, BUFFER_LOST) copied as read(), plus
 * VERSION, DEVICE_INFO, DEVICE_TOPOLOGY and TIMESTAMP_CORRELATION.
 *
 * The parser takes bytes in pieces of any size (a file read in chunks:
 * memory stays bounded however long the recording) and hands each record
 * to callbacks. Any malformed record stops it with the record's byte
 * offset and the reason; everything before was delivered. A file holds
 * one stream: a later DEVICE_INFO that changes the OA format, the
 * timestamp frequency or the device id is malformed.
 */
#ifndef COMMON_I915_OA_RECORDER_H
#define COMMON_I915_OA_RECORDER_H

#include "common/i915/oa_format.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OA_REC_VERSION 0x10000u
#define OA_REC_DEVICE_INFO 0x10001u
#define OA_REC_DEVICE_TOPOLOGY 0x10002u
#define OA_REC_TIMESTAMP_CORRELATION 0x10003u
#define OA_REC_DEVICE_INFO_SIZE 344u

struct oa_rec_device_info {
  uint64_t timestamp_frequency;
  uint32_t device_id, device_revision;
  uint32_t gt_min_frequency, gt_max_frequency;
  uint32_t engine_class, engine_instance;
  uint32_t oa_format;
  char metric_set_name[257]; /* NUL-terminated copies */
  char metric_set_uuid[41];
};

struct oa_rec_ops {
  void (*device_info)(void *ctx, const struct oa_rec_device_info *info);
  void (*topology)(void *ctx, const uint8_t *blob, size_t len);
  void (*correlation)(void *ctx, uint64_t cpu_ns, uint64_t gpu_timestamp);
  void (*sample)(void *ctx, const uint8_t *report); /* fmt->size bytes */
  void (*status)(void *ctx, uint32_t type); /* REPORT_LOST, BUFFER_LOST */
};

struct oa_rec_parser {
  const struct oa_rec_ops *ops; /* borrowed */
  void *ctx;
  uint64_t offset; /* file offset of the next record */
  bool have_version;
  const struct oa_format *fmt;  /* from DEVICE_INFO */
  uint64_t timestamp_frequency; /* from DEVICE_INFO */
  uint32_t device_id;           /* from DEVICE_INFO */
  char error[160];              /* "" while well formed */
  uint64_t error_offset;
};

void oa_rec_parser_init(struct oa_rec_parser *p, const struct oa_rec_ops *ops,
                        void *ctx);

/* Parse the whole records at the start of `data` (`len` bytes, the file's
 * bytes from p->offset on) and return how many bytes they took; the rest
 * (an unfinished record) must be passed again with what follows. `eof`:
 * nothing follows, so an unfinished record is an error. Returns -1 once
 * p->error is set (then and later). Pure. */
long oa_rec_parse(struct oa_rec_parser *p, const uint8_t *data, size_t len,
                  bool eof);

/* Read file descriptor `fd` to its end in chunks through a parser: 0, -1
 * with p->error set, or -errno of read(). */
int oa_rec_read_fd(int fd, struct oa_rec_parser *p);

#endif
