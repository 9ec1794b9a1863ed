#!/bin/sh
# nvidb itself on a real GPU: a queue job holding memory, a stranger holding memory, a job too big.
set -u
img=${1:?usage: e2e.sh IMAGE_DIR OUT_DIR}; o=${2:?usage: e2e.sh IMAGE_DIR OUT_DIR}; d=$(cd "$(dirname "$0")" && pwd)

nv=$img/bin/nvidb
export NVIDB_HOME=/tmp/nvh
run() { name=$1; shift; { echo "=== $name: nvidb $*"; $nv "$@"; echo "rc=$?"; } >> "$o/all.txt" 2>&1; }
$nv --version > $o/version.txt 2>&1
setsid python3 $d/hold.py 3 idle /tmp/ready-x 90 > /tmp/x.log 2>&1 &
for i in $(seq 1 60); do [ -f /tmp/ready-x ] && break; sleep 0.5; done
run 01-submit.json job submit --json --name hold20 --vram 24G -- python3 $d/hold.py 20 busy /tmp/ready-j 60
for i in $(seq 1 60); do [ -f /tmp/ready-j ] && break; sleep 0.5; done
sleep 2
run 02-submit-big.json job submit --json --name too-big --vram 120G -- true
run 03-status.json queue status --json --tick
run 04-nodes.json queue nodes --procs --json
run 05-show1.json job show 1 --json
run 06-show2.json job show 2 --json
run 07-status.txt queue status
$nv queue nodes --procs >> $o/all.txt 2>&1
kill $(cat /tmp/ready-x)
$nv job cancel 1 2 --json >> $o/all.txt 2>&1
ls -la $o
