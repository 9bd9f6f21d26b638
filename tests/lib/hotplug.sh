# Bounded polls for the hot-plug tests (devices added, removed, renamed
# while an executable runs with --interval): no sleep-and-hope, every wait
# has a deadline.
#   hp_wait FILE ERE SECONDS [COUNT]  until FILE has COUNT (1) lines
#                                     matching ERE; false at the deadline
#   hp_count FILE ERE                 lines of FILE matching ERE now
hp_count() {
  local n
  n=$(grep -cE -- "$2" "$1" 2>/dev/null)
  echo "${n:-0}"
}
hp_wait() {
  local deadline=$((SECONDS + $3)) want=${4:-1}
  while ((SECONDS < deadline)); do
    [[ $(hp_count "$1" "$2") -ge $want ]] && return 0
    sleep 0.1
  done
  [[ $(hp_count "$1" "$2") -ge $want ]]
}
