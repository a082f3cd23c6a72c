# Sourced by the bench scripts: with SIGNET_PROFILE=<dir> set, a system-wide CPU profile (perf,
# software clock: this machine's virtual CPUs have no hardware counters) of the middle of a
# measured run, and two summaries beside it: the share of samples by process name (how the two
# cores were split between Signet's threads, PostgreSQL's backends, the load generator and the
# kernel) and the hottest symbols. Profiling costs some throughput: the figures of a profiled
# run are not the ones to report.
#   profile_start NAME SECONDS   (just before the load starts; records from its 2nd second)
#   profile_wait                 (after the load; the summaries are written by then)

profile_start() {
  [ -n "${SIGNET_PROFILE:-}" ] || return 0
  command -v perf >/dev/null || { echo "SIGNET_PROFILE needs perf (apt-get install linux-perf)" >&2; exit 1; }
  mkdir -p "$SIGNET_PROFILE"
  local out="$SIGNET_PROFILE/$1" seconds=$(($2 > 4 ? $2 - 3 : 1))
  (
    sleep 2
    perf record -q -a -g -F 499 -e cpu-clock -o "$out.data" -- sleep "$seconds" >/dev/null 2>&1
    summary() { grep -v '^#' | grep -v '^$' | sed -E 's/[ -]+$//' | head -"$1"; }
    perf report -i "$out.data" --no-children --sort comm,dso --stdio -g none 2>/dev/null | summary 25 >"$out.comm.txt"
    perf report -i "$out.data" --no-children --sort comm,dso,symbol --stdio -g none 2>/dev/null | summary 60 >"$out.symbols.txt"
  ) &
  PROFILE_PID=$!
}

profile_wait() {
  [ -n "${SIGNET_PROFILE:-}" ] || return 0
  wait "$PROFILE_PID" 2>/dev/null || true
  echo "profile: $SIGNET_PROFILE/*.comm.txt and *.symbols.txt"
}
