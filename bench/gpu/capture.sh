#!/bin/sh
# Captures real nvidia-smi output and nvidb's probe scripts run on a real GPU.
set -u
o=${1:?usage: capture.sh OUT_DIR}; d=$(cd "$(dirname "$0")" && pwd)
cap() { name=$1; shift; { echo "\$ $*"; "$@"; echo "rc=$?"; } > "$o/$name" 2>&1; }
nvidia-smi > $o/idle-nvidia-smi.txt 2>&1
sh $d/gpu-section.sh > $o/idle-gpu-section.txt 2>&1
mkdir -p /tmp/nvidb-jobs/7
setsid python3 $d/hold.py 20 busy /tmp/ready-a 60 > /tmp/a.log 2>&1 &
setsid python3 $d/hold.py 3 idle /tmp/ready-b 60 > /tmp/b.log 2>&1 &
for i in $(seq 1 120); do [ -f /tmp/ready-a ] && [ -f /tmp/ready-b ] && break; sleep 0.5; done
pa=$(cat /tmp/ready-a); pb=$(cat /tmp/ready-b)
echo "$pa" > /tmp/nvidb-jobs/7/pid; ps -o pgid= -p "$pa" | tr -d ' ' > /tmp/nvidb-jobs/7/pgid
sleep 3
{ echo "pid_a=$pa pid_b=$pb"; ps -o pid,pgid,user,args -p "$pa,$pb"; } > $o/holders.txt
sh $d/gpu-section.sh > $o/busy-gpu-section.txt 2>&1
sh $d/probe.sh > $o/busy-probe.txt 2>&1
sh $d/free-memory.sh > $o/busy-free-memory.txt 2>&1
nvidia-smi > $o/busy-nvidia-smi.txt 2>&1
nvidia-smi --query-gpu=index,uuid,name,memory.total,memory.used,memory.free,utilization.gpu,utilization.memory,temperature.gpu,driver_version --format=csv > $o/busy-query-header.csv 2>&1
kill "$pa" "$pb"; sleep 4
sh $d/gpu-section.sh > $o/after-gpu-section.txt 2>&1
cat /tmp/a.log /tmp/b.log > $o/holders.log
ls -la $o
