#!/usr/bin/env python3
"""Compare i915_oa's replay (JSON, one array per batch) with what igt's
i915-perf-reader -r prints for the same recording, report by report.

  oa_reader_compare.py OURS.json READER.txt

The reader prints, per report i, the counters between report i and i+1;
our batch i+1 is the same interval, so each of its per-interval values
(differences of our cumulative totals, and the floats) must agree.
Prints one line per compared value that differs and exits 1 on any."""
import json
import re
import sys

# reader counter -> (our field, cumulative?)
FIELDS = {
    "GpuCoreClocks": ("gpu_core_clocks", True),
    "GpuTime": ("gpu_time_ns", True),
    "GpuBusy": ("gpu_busy_percent", False),
    "AvgGpuCoreFrequency": ("avg_gpu_core_frequency_hz", False),
    "EuActive": ("eu_active_percent", False),
    "EuStall": ("eu_stall_percent", False),
}


def reader_reports(path):
    reports, current = {}, None
    for line in open(path):
        m = re.match(r"^ report(\d+) = ", line)
        if m:
            current = reports.setdefault(int(m.group(1)), {})
            continue
        m = re.match(r"^   (\w+): (\S+)$", line)
        if m and current is not None:
            current[m.group(1)] = float(m.group(2))
    return reports


def our_batches(path):
    text, dec, i, out = open(path).read().strip(), json.JSONDecoder(), 0, []
    while i < len(text):
        batch, i = dec.raw_decode(text, i)
        while i < len(text) and text[i].isspace():
            i += 1
        out.append(next(r for r in batch if r["name"] == "i915_oa"))
    return out


def main(argv):
    ours, theirs = our_batches(argv[1]), reader_reports(argv[2])
    bad = compared = 0
    if len(theirs) != len(ours):
        print(f"reader has {len(theirs)} reports, we have {len(ours)} batches")
        return 1
    for i, report in sorted(theirs.items()):
        for counter, value in report.items():
            if counter not in FIELDS:
                continue
            field, cumulative = FIELDS[counter]
            mine = ours[i].get(field)
            if mine is not None and cumulative and i > 0:
                mine -= ours[i - 1][field]
            if mine is None or abs(mine - value) > 1e-6 * max(1.0, abs(value)):
                print(f"report {i} {counter}: reader {value}, ours {mine}")
                bad += 1
            compared += 1
    print(f"{compared} values compared, {bad} differ")
    return 1 if bad or compared == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
