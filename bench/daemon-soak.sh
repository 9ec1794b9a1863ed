#!/bin/sh
# The daemon soak at length: SECONDS_TO_RUN (default 1800) of submit/cancel/requeue churn from four
# processes against a queue daemon serving two loopback sshd nodes that are restarted and
# black-holed at random (modules/cli DaemonSoakTest, which CI runs for 2 minutes). Prints the daemon's
# resident size and open files at the start and the end, and how many jobs settled; fails when an
# acknowledged job is missing, an attempt starts or ends twice, a job does not settle once the
# nodes are back, or the figures grow past their bounds. Needs openssh-server.
#
# Builds what it needs from this checkout with the reactor (nothing is written to ~/.m2).
set -eu
root=$(cd -P -- "$(dirname -- "$0")/.." && pwd -P)
. "$root/scripts/find-jdk25.sh"
use_jdk25
cd "$root"
seconds=${SECONDS_TO_RUN:-1800}
echo "daemon-soak: $seconds s" >&2
mvn -q -B -ntp -pl modules/cli -am verify -Dtest=DaemonSoakTest -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test=none -Dfailsafe.failIfNoSpecifiedTests=false -Dnvidb.soak.seconds="$seconds" \
    -Dnvidb.fork.timeout=0 -Dsurefire.forkedProcessExitTimeoutInSeconds=60
