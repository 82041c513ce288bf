# Shared by the batch scripts in jobs/ (sourced, not run).
#
# Jobs may run as root on small clusters; Open MPI refuses that without these.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# sphreverb's exit code for "checkpointed on a signal: resubmit with restart".
readonly SPHREVERB_EXIT_CHECKPOINTED=75

# Runs a command (mpirun ...) in the background and forwards SIGUSR1 and SIGTERM, which Slurm sends
# to the batch shell (--signal=B:USR1@T, scancel --signal=USR1 --batch, the time limit), to it as
# SIGUSR2: Debian's Open MPI 4.1 forwards SIGUSR2 to every rank but not SIGUSR1, and answers SIGTERM
# by killing the ranks a second later, too soon for a checkpoint. Sets rc to the command's exit code.
run_forwarding_signals() {
  "$@" &
  local pid=$!
  # shellcheck disable=SC2064
  trap "echo 'jobs: signal received, asking sphreverb for a checkpoint'; kill -USR2 $pid 2> /dev/null" USR1 TERM
  while :; do
    wait "$pid"
    rc=$?
    # wait returns 128+n when a trapped signal interrupts it while the command still runs.
    if ((rc > 128)) && kill -0 "$pid" 2> /dev/null; then continue; fi
    break
  done
  trap - USR1 TERM
}

# The newest complete checkpoint of run directory $1 (partial files have another name), or "".
latest_checkpoint() {
  local f
  f=$(ls "$1"/checkpoints/step_*.h5 2> /dev/null | sort | tail -n 1)
  echo "${f:-}"
}

# Writes run directory $1's report page ($1/report.html, sphreverb_post report) after a successful
# run. A failing report only warns: it never turns a good run into a failed job.
write_report() {
  PYTHONPATH="${SLURM_SUBMIT_DIR:-.}/postproc" /usr/bin/python3 -m sphreverb_post report "$1" ||
    echo "jobs: warning: the run succeeded but its report ($1/report.html) failed" >&2
  return 0
}
