#!/usr/bin/env bash
# A real single-node Slurm on this machine, from Debian's slurm-wlm and munge: munged,
# slurmctld and slurmd on localhost, with their config, state and logs in DIR (nothing under
# /etc is changed). The sweep tests start it; it is also a way to try `posbias sweep` before a
# cluster. Slurm's commands find it through SLURM_CONF=DIR/slurm.conf.
# Usage: scripts/local-slurm.sh start|stop|status [DIR]   (DIR defaults to /tmp/posbias-slurm)
# `start` waits until the node takes jobs (or fails with the daemons' logs) and is a no-op when
# this Slurm already runs.
set -euo pipefail
action=${1:?usage: local-slurm.sh start|stop|status [DIR]}
dir=$(realpath -m "${2:-/tmp/posbias-slurm}")
conf=$dir/slurm.conf
export SLURM_CONF=$conf
host=$(hostname -s)

daemon_pid() { [[ -f $dir/$1.pid ]] && kill -0 "$(cat "$dir/$1.pid" 2>/dev/null)" 2>/dev/null && cat "$dir/$1.pid" 2>/dev/null; }

stop() {
  for d in slurmd slurmctld munged; do
    if pid=$(daemon_pid "$d"); then kill "$pid" 2>/dev/null || true; fi
  done
  for _ in $(seq 50); do
    daemon_pid slurmd >/dev/null || daemon_pid slurmctld >/dev/null || daemon_pid munged >/dev/null ||
      return 0
    sleep 0.1
  done
  for d in slurmd slurmctld munged; do
    if pid=$(daemon_pid "$d"); then kill -9 "$pid" 2>/dev/null || true; fi
  done
}

node_idle() { sinfo -h -N -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; }

case $action in
  stop) stop; exit 0 ;;
  status)
    if node_idle; then echo "local Slurm at $dir: up ($(sinfo -h -N -o '%N %T %c CPUs'))"; exit 0; fi
    echo "local Slurm at $dir: down"; exit 1 ;;
  start) ;;
  *) echo "local-slurm: unknown action '$action' (start, stop or status)" >&2; exit 2 ;;
esac

for tool in munged slurmctld slurmd sinfo; do
  command -v "$tool" >/dev/null || {
    echo "local-slurm: $tool is missing; scripts/install-deps.sh installs slurm-wlm and munge" >&2
    exit 1
  }
done
if node_idle; then exit 0; fi
stop
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 700 "$dir/munge"

# munge: a key of this Slurm's own (the package's, when readable), its socket in DIR.
if [[ ! -f $dir/munge/munge.key ]]; then
  if [[ -r /etc/munge/munge.key ]]; then cp /etc/munge/munge.key "$dir/munge/munge.key"
  else dd if=/dev/urandom of="$dir/munge/munge.key" bs=1 count=1024 status=none; fi
  chmod 400 "$dir/munge/munge.key"
fi
socket=$dir/munge/munge.socket
munged --force --key-file="$dir/munge/munge.key" --socket="$socket" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/seed" \
  </dev/null >/dev/null 2>&1

cpus=$(nproc)
memory_mb=$(( $(awk '/MemTotal/{print $2}' /proc/meminfo) / 1024 - 1024 ))
cat >"$conf" <<EOF
ClusterName=posbias
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldPort=${POSBIAS_SLURMCTLD_PORT:-6817}
SlurmdPort=${POSBIAS_SLURMD_PORT:-6818}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
MaxArraySize=10001
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory_mb State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

# The daemons' output goes to their logs, not to whatever pipe started this script.
slurmctld -f "$conf" -i </dev/null >/dev/null 2>&1
slurmd -f "$conf" </dev/null >/dev/null 2>&1
for _ in $(seq 150); do
  if node_idle; then
    echo "local Slurm at $dir: up ($(sinfo -h -N -o '%N %c CPUs'))" >&2
    exit 0
  fi
  sleep 0.2
done
echo "local-slurm: the node did not come up within 30 s; the logs:" >&2
tail -n 5 "$dir/slurmctld.log" "$dir/slurmd.log" "$dir/munged.log" >&2 || true
stop
exit 1
