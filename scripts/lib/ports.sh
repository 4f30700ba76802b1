# Ports for the servers a script starts on loopback (sourced by scripts/test.sh and scripts/demo.sh).
# A port found free can still be taken by another process before a server binds it: the scripts
# start a server, wait for it with `listening`, and start it again on other ports when it exited.

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# A free port (the preferred one first when given and free), else nothing.
free_port() {
  local p="${1:-}"
  if [ -n "$p" ] && ! port_in_use "$p"; then echo "$p"; return 0; fi
  for _ in $(seq 200); do
    p=$((20000 + RANDOM % 40000))
    port_in_use "$p" || { echo "$p"; return 0; }
  done
  return 1
}

# listening PID PORT…: true once process PID listens on every port given (15 s at most), false
# when it exited first.
listening() {
  local pid=$1 all p
  shift
  for _ in $(seq 150); do
    kill -0 "$pid" 2>/dev/null || return 1
    all=1
    for p in "$@"; do port_in_use "$p" || all=0; done
    [ "$all" = 1 ] && return 0
    sleep 0.1
  done
  return 1
}
