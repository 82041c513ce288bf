#!/usr/bin/env bash
# A one-node Slurm cluster on this machine (munge, slurmctld, slurmd), for testing jobs/ for real.
#   scripts/slurm_local.sh up      start it (idempotent); prints `export SLURM_CONF=...`
#   scripts/slurm_local.sh down    stop it and remove its state
#   scripts/slurm_local.sh status  sinfo / squeue
# Needs root and Debian's slurmctld slurmd slurm-client munge (scripts/install_deps.sh installs them).
# Everything lives under $SLURM_LOCAL_DIR (default /tmp/sphreverb-slurm); /etc is not touched, the
# daemons and clients find the configuration through SLURM_CONF. No systemd: the daemons are
# started by hand and stopped by their pid files (docs/dev/operations.md says why each setting is what it is).
set -euo pipefail
dir=${SLURM_LOCAL_DIR:-/tmp/sphreverb-slurm}
conf=$dir/slurm.conf
export SLURM_CONF=$conf

die() { echo "slurm_local: $*" >&2; exit 1; }

write_conf() {
  local node
  node=$(slurmd -C | head -n1 | sed -e 's/^NodeName=[^ ]* //' -e 's/ *UpTime=.*//')
  local mem
  mem=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<< "$node")
  mkdir -p "$dir/state" "$dir/spool" "$dir/log"
  cat > "$conf" <<EOF
ClusterName=sphreverb-local
SlurmctldHost=localhost
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=$((mem / 4))
SchedulerParameters=batch_sched_delay=0
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
KillWait=10
MinJobAge=300
InactiveLimit=0
NodeName=localhost NodeAddr=127.0.0.1 ${node}
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
}

alive() { [[ -f $1 ]] && kill -0 "$(cat "$1")" 2> /dev/null; }

up() {
  [[ $EUID -eq 0 ]] || die "needs root (the daemons run as root here)"
  for c in slurmctld slurmd munged sinfo; do command -v "$c" > /dev/null || [[ -x /usr/sbin/$c ]] ||
    die "$c not found: run scripts/install_deps.sh"; done
  write_conf
  if ! pgrep -x munged > /dev/null; then
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    chown munge:munge /run/munge /var/log/munge /var/lib/munge
    [[ -f /etc/munge/munge.key ]] || { /usr/sbin/mungekey --create; chown munge:munge /etc/munge/munge.key; }
    runuser -u munge -- /usr/sbin/munged
  fi
  alive "$dir/slurmctld.pid" || /usr/sbin/slurmctld
  alive "$dir/slurmd.pid" || /usr/sbin/slurmd -N localhost
  for _ in $(seq 1 60); do
    if sinfo -h -N -o '%t' 2> /dev/null | grep -qE '^(idle|mix|alloc)'; then
      echo "export SLURM_CONF=$conf"
      return 0
    fi
    sleep 0.5
  done
  sinfo -N 2>&1 || true
  tail -n 20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
  die "the node did not become idle within 30 s"
}

down() {
  for f in "$dir/slurmd.pid" "$dir/slurmctld.pid"; do
    if alive "$f"; then kill "$(cat "$f")"; fi
  done
  for _ in $(seq 1 20); do
    alive "$dir/slurmd.pid" || alive "$dir/slurmctld.pid" || break
    sleep 0.25
  done
  rm -rf "$dir"
}

case ${1:-} in
  up) up ;;
  down) down ;;
  status) sinfo -N; squeue ;;
  *) echo "usage: scripts/slurm_local.sh up|down|status" >&2; exit 2 ;;
esac
