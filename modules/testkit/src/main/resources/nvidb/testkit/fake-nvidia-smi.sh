#!/bin/sh
# Fake nvidia-smi written by nvidb.testkit.FakeNvidiaSmi. POSIX sh + awk only.
# Every call re-reads the state folder, so a test can change the GPUs between calls:
#   mode         NORMAL | BLIND | BLIND_NA | FAILING   (MISSING: this file is deleted)
#   gpus         index|uuid|name|total|base_used|util|mem_util|temperature|power   (one GPU a line)
#   foreign      pid|gpu_index|mib|process name   (reported whether or not the pid lives)
#   alloc/<pid>  "gpu_index mib [process name]" lines, reported only while <pid> lives
#   calls        one line appended per call (the arguments)
S=@STATE@
# The tools it needs come from the usual places whatever PATH the caller runs it with.
PATH=/usr/local/bin:/usr/bin:/bin${PATH:+:$PATH}
export PATH
printf '%s\n' "$*" >>"$S/calls"
mode=NORMAL
[ -r "$S/mode" ] && read -r mode <"$S/mode"
if [ "$mode" = FAILING ]; then
  echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running."
  exit 9
fi

what=
fields=
format=
for a in "$@"; do
  case $a in
    --query-gpu=*) what=gpu; fields=${a#*=} ;;
    --query-compute-apps=*) what=apps; fields=${a#*=} ;;
    --format=*) format=${a#*=} ;;
    *) echo "fake nvidia-smi: unsupported argument '$a'" >&2; exit 2 ;;
  esac
done
if [ -z "$what" ]; then
  echo "fake nvidia-smi: only --query-gpu= and --query-compute-apps= are supported" >&2
  exit 2
fi
if [ "$format" != csv,noheader,nounits ]; then
  echo "fake nvidia-smi: only --format=csv,noheader,nounits is supported, not '$format'" >&2
  exit 2
fi
set -f
IFS=,
for f in $fields; do
  case $what:$f in
    gpu:index|gpu:uuid|gpu:name|gpu:memory.total|gpu:memory.used|gpu:memory.free) ;;
    gpu:utilization.gpu|gpu:utilization.memory|gpu:temperature.gpu|gpu:power.draw) ;;
    apps:pid|apps:gpu_uuid|apps:used_memory|apps:used_gpu_memory|apps:process_name) ;;
    *) echo "Field \"$f\" is not a valid field to query."; exit 2 ;;
  esac
done
unset IFS
set +f

# Live allocations only: kill -0 and not a zombie (a dead process holds no GPU memory).
set --
for p in "$S"/alloc/*; do
  [ -f "$p" ] || continue
  pid=${p##*/}
  if kill -0 "$pid" 2>/dev/null; then
    st=
    { read -r st <"/proc/$pid/stat"; } 2>/dev/null
    case ${st##*) } in
      Z*|X*) ;;
      *) set -- "$@" "$p"; continue ;;
    esac
  fi
  rm -f "$p"
done

exec awk -F'|' -v what="$what" -v q="$fields" -v mode="$mode" '
FILENAME == ARGV[1] {
  if (NF < 8) next
  n++; gi[n] = $1; gu[$1] = $2; gn[$1] = $3; gt[$1] = $4
  gut[$1] = $6; gmu[$1] = $7; gte[$1] = $8; gpw[$1] = (NF >= 9 ? $9 : "[N/A]"); used[$1] += $5
  next
}
FILENAME == ARGV[2] {
  if (NF < 4) next
  np++; pp[np] = $1; pg[np] = $2; pm[np] = $3; pn[np] = $4; used[$2] += $3
  next
}
{
  k = split($0, a, " ")
  if (k < 2) next
  pid = FILENAME; sub(/.*\//, "", pid)
  nm = $0; sub(/^ *[^ ]+ +[^ ]+ */, "", nm)
  if (nm == "") nm = "python"
  np++; pp[np] = pid; pg[np] = a[1]; pm[np] = a[2]; pn[np] = nm; used[a[1]] += a[2]
}
function gv(x, f) {
  if (f == "index") return x
  if (f == "uuid") return gu[x]
  if (f == "name") return gn[x]
  if (f == "memory.total") return gt[x]
  if (f == "memory.used") return used[x]
  if (f == "memory.free") return gt[x] > used[x] ? gt[x] - used[x] : 0
  if (f == "utilization.gpu") return gut[x]
  if (f == "utilization.memory") return gmu[x]
  if (f == "power.draw") return gpw[x]
  return gte[x]
}
function av(p, f) {
  if (f == "pid") return pp[p]
  if (f == "gpu_uuid") return gu[pg[p]]
  if (f == "process_name") return pn[p]
  return mode == "BLIND_NA" ? "[N/A]" : pm[p]
}
END {
  if (n == 0) { print "No devices were found"; exit 6 }
  k = split(q, f, ",")
  for (j = 1; j <= n; j++) {
    x = gi[j]
    if (what == "gpu") {
      line = gv(x, f[1]); for (i = 2; i <= k; i++) line = line ", " gv(x, f[i]); print line
    } else if (mode != "BLIND") {
      for (p = 1; p <= np; p++) if (pg[p] == x) {
        line = av(p, f[1]); for (i = 2; i <= k; i++) line = line ", " av(p, f[i]); print line
      }
    }
  }
}' "$S/gpus" "$S/foreign" "$@"
