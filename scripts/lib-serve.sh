# Sourced by scripts/test-sdk.sh and scripts/test-jevcompat.sh (bash, `set -euo pipefail`):
#   python_venv NAME==VERSION...  the virtualenv ${RUNLENS_SDK_VENV:-target/sdk-venv} with each
#                                 package at that version (pip; skipped when already there)
#   runlens_bin                   $RUNLENS_BIN, or the debug CLI built with cargo
#   start_serve LOG COMMAND...    runs COMMAND (`env … runlens serve …`) in the background; sets
#                                 SERVE_URL once it prints its start-up line (on stdout, or on
#                                 stderr with URL_ON=stderr); fails after 15 s or when it exits
#                                 first
#   stop_servers                  stops every server started (call it from an EXIT trap)
# Servers started here listen on 127.0.0.1 (the callers pass --addr 127.0.0.1:0).

venv="${RUNLENS_SDK_VENV:-target/sdk-venv}"
SERVER_PIDS=()

python_venv() {
  local missing=() spec name version have
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  for spec in "$@"; do
    name="${spec%%[[=]*}"
    version="${spec##*==}"
    have="$("$venv/bin/python" -c "import importlib.metadata as m; print(m.version('$name'))" 2>/dev/null || true)"
    [ "$have" = "$version" ] || missing+=("$spec")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing into $venv: ${missing[*]}"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "${missing[@]}"
  fi
}

runlens_bin() {
  if [ -n "${RUNLENS_BIN:-}" ]; then
    echo "$RUNLENS_BIN"
  else
    cargo build --quiet -p runlens-cli
    echo "${CARGO_TARGET_DIR:-target}/debug/runlens"
  fi
}

start_serve() {
  local log="$1" pid
  shift
  "$@" >"$log.stdout" 2>"$log.stderr" &
  pid=$!
  SERVER_PIDS+=("$pid")
  SERVE_URL=""
  for _ in $(seq 1 150); do
    SERVE_URL="$(grep -o 'http://[0-9.]*:[0-9]*' "$log.${URL_ON:-stdout}" | head -n 1 || true)"
    [ -n "$SERVE_URL" ] && return 0
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "$1 exited early:" >&2
      cat "$log.stderr" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "$1 printed no URL within 15 s" >&2
  return 1
}

stop_servers() {
  local pid
  for pid in "${SERVER_PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
}
