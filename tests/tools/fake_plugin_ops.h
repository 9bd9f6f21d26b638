/*
 * fake_plugin_ops.h: a plugin core that touches no hardware, for testing
 * the two hosts (tests/e2e/exec_host.sh, tests/e2e/collectd_host.sh).
 *
 * Every read emits one record
 *
 *   fake,instance=<label>[,tag=<Tag>] counter=<n*Step>i,reads=<n>i,
 *        half=<n*Step/2>,debt=<-n*Step>i[,<Field>=<Value>i...]
 *
 * where n counts the reads (the first read has n = 1). The collectd types
 * are derive (counter), count (reads), gauge (half), counter (debt, so the
 * host must clamp a negative value to 0) and per Field its Type.
 *
 * Keys: Step N (default 1), Tag S, FailInit B, FailRead B (read logs an
 * error and returns -EIO without a record), FreeMarker PATH (instance_free
 * appends "freed <label> reads=<n>" to PATH), BadTypes B (adds a field of
 * an unknown type and one of the two-source type io_octets), NoTags B
 * (the record has no tags at all, like drm_scan),
 * <Field "name"> Value N; Type T </Field> (at most 4; in the exec host
 * --Field=name --Field.Value=N --Field.Type=T), ReportHost B (adds
 * interval_ns: the read interval the host handed to init), DrainInterval S
 * (a drain hook of that period: adds drains, the calls so far, and
 * overlaps, the times read and drain ran at once), ExtraFields N (at most
 * 1000: N more fields x0=0i, x1=1i, ... of type count, added without
 * checking, so that past the record's capacity the host's overflow report
 * shows), Hang PATH (each read first waits for a byte from the FIFO at
 * PATH: a read that blocks like one of a hung device), ReadDelay S (each
 * read sleeps S seconds, at most 10: a slow read). The record's time is
 * the host clock's. Messages start with "fake_plugin: <label>: ".
 * fake_other_ops is the same core under the name fake_other, for the
 * one-process host (tests/tools/fake_multi.c).
 */
#ifndef TESTS_TOOLS_FAKE_PLUGIN_OPS_H
#define TESTS_TOOLS_FAKE_PLUGIN_OPS_H

#include "common/core/plugin.h"

extern const struct plugin_ops fake_plugin_ops;
extern const struct plugin_ops fake_other_ops;

#endif
