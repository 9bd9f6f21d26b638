# Shell access to tests/lib/lineproto.py, the strict Influx line protocol
# reader: every helper parses its whole stdin and fails (status 1, the
# error on stderr) on a malformed line. Source it; run from the repository
# root (every e2e script cd's there).
#   lp_get KEY [--measurement M] [--where K=V ...]   one value per matching line
#   lp_has KEY [...]        status 0 when some line matches and has KEY
#   lp_count [--measurement M] [--where K=V ...]     number of matching lines
#   lp_untime               the lines with their timestamp replaced by "T"
#   lp_json                 one JSON object per line
LINEPROTO=${LINEPROTO:-tests/lib/lineproto.py}
lp_get() { python3 "$LINEPROTO" get "$@"; }
lp_has() { [[ -n $(python3 "$LINEPROTO" get "$@" 2>/dev/null) ]]; }
lp_count() { python3 "$LINEPROTO" count "$@"; }
lp_untime() { python3 "$LINEPROTO" untime; }
lp_json() { python3 "$LINEPROTO" json; }
