# Stops a lane's runner: withdraws every unclaimed spec and leaves the stop file (the runner
# exits once its jobs are done). Hard: TERM it now as well. Restart: the runner is asked to exit
# at once instead (its jobs keep running and the next runner adopts them). Never signals a job.
# Prints stopped=1 when a runner was told, then the lane's answer.
# nvidb puts these values ahead of this text (LaneRunner.stopScript); hard and restart are 0 or 1.
: "${m?}" "${nvidb_root?}" "${nvidb_slug?}" "${nvidb_hard?}" "${nvidb_restart?}"

case $nvidb_root in /*) ;; *) nvidb_root=$HOME/$nvidb_root ;; esac # a relative root lives under $HOME
d=$nvidb_root/$nvidb_slug
[ -d "$d" ] || { echo stopped=0; echo "$m state"; exit 0; }
cd "$d" || exit 1
rm -f queue/* 2>/dev/null
if [ "$nvidb_restart" = 1 ]; then : > "exit"; else : > stop; fi
if nvidb_runner_alive "$nvidb_slug"; then
    echo stopped=1
    if [ "$nvidb_hard" = 1 ]; then kill -TERM "$(cat runner.pid)" 2>/dev/null; fi
    if [ "$nvidb_hard" = 1 ] || [ "$nvidb_restart" = 1 ]; then nvidb_wait_while 60 nvidb_runner_alive "$nvidb_slug"; fi
else
    echo stopped=0
fi
if [ "$nvidb_restart" = 1 ]; then rm -f exit; fi
nvidb_lane_answer "$nvidb_slug" "$m"
