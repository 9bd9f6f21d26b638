# TAP helpers for shell test layers. Source it; call tap_ok/tap_fail/tap_skip,
# tap_is (expected, actual, name), and tap_done at the end.
tap_n=0
tap_failed=0
tap_ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
tap_fail() {
  tap_n=$((tap_n + 1))
  tap_failed=$((tap_failed + 1))
  echo "not ok $tap_n - $*"
}
tap_skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP $2"; }
tap_check() { # name, command...
  local name=$1
  shift
  if "$@"; then tap_ok "$name"; else tap_fail "$name"; fi
}
tap_is() { # expected, actual, name
  if [[ "$1" == "$2" ]]; then
    tap_ok "$3"
  else
    tap_fail "$3"
    printf '# expected: %s\n#      got: %s\n' "$1" "$2" | sed -n '1,40p'
  fi
}
tap_done() { echo "1..$tap_n"; [[ $tap_failed -eq 0 ]]; }
