#!/usr/bin/env bash
# local-slurm.sh - a throw-away Slurm cluster on localhost, for the tests of slurm/ (label slurm).
#
# Adapted from the shared, tested recipe ../shared/slurm/local-slurm.sh (its NOTES.md lists the
# measurements and the pitfalls handled below). Changes for bolt: the state and slurm.conf live
# under LOCAL_SLURM_DIR (nothing is written to /etc/slurm; SLURM_CONF points at it), the Slurm
# packages come from tools/setup-debian.sh, and the MPI self-test is left out (the tests in this
# directory run bolt instead).
#
# Tested on Debian 12 (bookworm) x86_64 as root, with no systemd/init to manage services:
#   Slurm 22.05.8 (slurm-wlm), MUNGE 0.5.15, Open MPI 4.1.4, PMIx 4.2.2.
# One slurmctld + one slurmd (or LOCAL_SLURM_NODES slurmd's on different ports, to emulate
# a multi-node cluster on one machine) + munged, all as plain daemons. No cgroups, no accounting.
# Ports 6817 and 6818.. must be free: one such cluster per machine.
#
# Usage:
#   local-slurm.sh up        install (if needed) + configure + start + wait until a test step runs
#   local-slurm.sh down      cancel all jobs, stop slurmd(s), slurmctld and munged by PID (packages stay)
#   local-slurm.sh status    daemons, sinfo, squeue
#   local-slurm.sh install   only apt-get install the packages
#   local-slurm.sh wait JOBID...  poll until the jobs leave the queue; exit 1 unless all COMPLETED
# Or `source` it and call local_slurm_up / local_slurm_down / local_slurm_wait_jobs.
# Every step is idempotent: `up` on a running cluster with unchanged settings does nothing;
# with changed settings it rewrites slurm.conf and restarts the Slurm daemons.
#
# Environment knobs (all optional):
#   LOCAL_SLURM_DIR        state/log/spool dir, short (socket paths) (default /tmp/bolt-local-slurm)
#   LOCAL_SLURM_CONF       slurm.conf path; exported as SLURM_CONF    (default $LOCAL_SLURM_DIR/slurm.conf)
#   LOCAL_SLURM_NODES      number of emulated nodes              (default 1: node "localhost";
#                          N>1: nodes node1..nodeN, one slurmd each, all on this machine)
#   LOCAL_SLURM_CPUS       CPUs per node (may exceed real cores) (default: nproc)
#   LOCAL_SLURM_MEM_MB     RealMemory per node, MB, not enforced (default 1024)
#   LOCAL_SLURM_PARTITIONS partition names, first is the default (default "debug"), all with all nodes
#   LOCAL_SLURM_MPI_DEFAULT MpiDefault                          (default pmix: plain `srun ./mpi_app` works)
#   LOCAL_SLURM_TIMEOUT    seconds to wait for readiness         (default 60)
#   LOCAL_SLURM_JOB_TIMEOUT seconds `wait` waits for jobs        (default 600)
#   LOCAL_SLURM_NO_INSTALL=1  never call apt-get (missing packages are an error)

LOCAL_SLURM_DIR=${LOCAL_SLURM_DIR:-/tmp/bolt-local-slurm}
LOCAL_SLURM_CONF=${LOCAL_SLURM_CONF:-$LOCAL_SLURM_DIR/slurm.conf}
LOCAL_SLURM_NODES=${LOCAL_SLURM_NODES:-1}
# nproc alone would honour OMP_NUM_THREADS
LOCAL_SLURM_CPUS=${LOCAL_SLURM_CPUS:-$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)}
LOCAL_SLURM_MEM_MB=${LOCAL_SLURM_MEM_MB:-1024}
LOCAL_SLURM_PARTITIONS=${LOCAL_SLURM_PARTITIONS:-debug}
LOCAL_SLURM_MPI_DEFAULT=${LOCAL_SLURM_MPI_DEFAULT:-pmix}
LOCAL_SLURM_TIMEOUT=${LOCAL_SLURM_TIMEOUT:-60}
# keep in line with tools/setup-debian.sh
LOCAL_SLURM_PACKAGES=(slurmctld slurmd slurm-client munge openmpi-bin libopenmpi-dev)
export SLURM_CONF=$LOCAL_SLURM_CONF

_ls_log() { printf '[local-slurm %(%T)T] %s\n' -1 "$*" >&2; }
_ls_die() { _ls_log "ERROR: $*"; return 1; }

# Node names: "localhost" for one node, node1..nodeN otherwise.
_ls_nodes() {
    if [ "$LOCAL_SLURM_NODES" = 1 ]; then echo localhost; else seq -f 'node%g' 1 "$LOCAL_SLURM_NODES"; fi
}

# Process exists and is not a zombie (PID 1 may be slow to reap, or never reap, here).
_ls_alive() {
    local st
    st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) || return 1
    [ -n "$st" ] && [ "${st%% *}" != Z ]
}

# PID from a pid file, only if that process is alive and is the named program
# (guards against stale pid files whose PID was reused).
_ls_pid() {
    local f=$1 name=$2 p
    [ -s "$f" ] || return 1
    p=$(<"$f")
    [ -n "$p" ] && _ls_alive "$p" && [ "$(cat "/proc/$p/comm" 2>/dev/null)" = "$name" ] && echo "$p"
}

# Wait (max 5 s) for a daemon to write its pid file; print the PID.
_ls_wait_pidfile() {
    local f=$1 name=$2 i
    for i in $(seq 50); do _ls_pid "$f" "$name" && return 0; sleep 0.1; done
    return 1
}

local_slurm_install() {
    local missing=() p
    for p in "${LOCAL_SLURM_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    if [ ${#missing[@]} -eq 0 ]; then _ls_log "packages already installed"; return 0; fi
    [ "${LOCAL_SLURM_NO_INSTALL:-0}" = 1 ] && { _ls_die "missing packages: ${missing[*]}"; return 1; }
    _ls_log "installing: ${missing[*]}"
    # Lock timeout: another apt/dpkg may be running. Package postinsts cannot start the
    # daemons here (no init system / policy-rc.d): they are started below.
    DEBIAN_FRONTEND=noninteractive apt-get -q -o DPkg::Lock::Timeout=600 update >/dev/null || return 1
    DEBIAN_FRONTEND=noninteractive apt-get -q -y -o DPkg::Lock::Timeout=600 \
        install --no-install-recommends "${missing[@]}" >"${TMPDIR:-/tmp}/local-slurm-apt.log" 2>&1 \
        || { tail -n 20 "${TMPDIR:-/tmp}/local-slurm-apt.log" >&2; return 1; }
}

# Write slurm.conf; returns 0 if it changed, 1 if it was already up to date.
local_slurm_write_conf() {
    local d=$LOCAL_SLURM_DIR tmp n i=0 part def=YES nodelist
    nodelist=$(_ls_nodes | paste -sd,)
    mkdir -p "$d/ctld" "$d/log" "$(dirname "$LOCAL_SLURM_CONF")"
    for n in $(_ls_nodes); do mkdir -p "$d/spool-$n" "$d/tmp-$n"; chmod 1777 "$d/tmp-$n"; done
    tmp=$(mktemp)
    cat >"$tmp" <<EOF
# Written by local-slurm.sh: test cluster on localhost. Do not use in production.
ClusterName=localci
# the address is given so that nothing needs name resolution
SlurmctldHost=localhost(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
SlurmctldPort=6817
StateSaveLocation=$d/ctld
SlurmctldPidFile=$d/slurmctld.pid
SlurmctldLogFile=$d/log/slurmctld.log
# %n = node name: lets several slurmd run on one machine
SlurmdSpoolDir=$d/spool-%n
SlurmdPidFile=$d/slurmd-%n.pid
SlurmdLogFile=$d/log/slurmd-%n.log
# the PMIx plugin puts per-step dirs under TmpFS; per node, or emulated nodes collide
TmpFS=$d/tmp-%n
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true
# no cgroups: plain process tracking, no task binding/containment
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=$LOCAL_SLURM_MPI_DEFAULT
SchedulerType=sched/backfill
# schedule at once (the defaults delay each batch job by up to 3 s): ~1 s per short job
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
# trust the node lines below, not the detected hardware (CPUs may exceed the real cores)
SlurmdParameters=config_overrides
ReturnToService=2
# reject jobs that can never fit (e.g. too many nodes/CPUs) at submit time instead of pending forever
EnforcePartLimits=ALL
# cancel jobs whose dependency can never be satisfied (else they pend forever, sbatch --wait hangs)
DependencyParameters=kill_invalid_depend
KillWait=5
MinJobAge=300
InactiveLimit=0
Waittime=0
EOF
    if [ "$LOCAL_SLURM_NODES" -gt 1 ]; then
        # Emulated nodes share one hostname, so Open MPI's shared-memory (vader) segment files of
        # local rank 0 on node1 and on node2 get the same name and the ranks crash (segfault in
        # mca_btl_vader). Per-node vader directories do not help under mpirun (it forwards its
        # own OMPI_MCA_* to all nodes), so vader is switched off: ranks talk over TCP (loopback).
        cat >"$d/taskprolog.sh" <<'EOP'
#!/bin/sh
# Slurm TaskProlog: lines "export NAME=value" on stdout go into the task's environment.
echo "export TMPDIR=$(dirname "$0")/tmp-$SLURMD_NODENAME"
echo "export OMPI_MCA_btl=^vader"
EOP
        chmod 0755 "$d/taskprolog.sh"
        echo "TaskProlog=$d/taskprolog.sh" >>"$tmp"
    fi
    for n in $(_ls_nodes); do
        echo "NodeName=$n NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((6818 + i)) CPUs=$LOCAL_SLURM_CPUS RealMemory=$LOCAL_SLURM_MEM_MB State=UNKNOWN" >>"$tmp"
        i=$((i + 1))
    done
    for part in $LOCAL_SLURM_PARTITIONS; do
        echo "PartitionName=$part Nodes=$nodelist Default=$def MaxTime=INFINITE State=UP" >>"$tmp"
        def=NO
    done
    if [ -f "$LOCAL_SLURM_CONF" ] && cmp -s "$tmp" "$LOCAL_SLURM_CONF"; then
        rm -f "$tmp"; return 1
    fi
    if [ -f "$LOCAL_SLURM_CONF" ] && ! grep -q '^# Written by local-slurm.sh' "$LOCAL_SLURM_CONF" \
       && [ ! -e "$LOCAL_SLURM_CONF.local-slurm.bak" ]; then
        cp -p "$LOCAL_SLURM_CONF" "$LOCAL_SLURM_CONF.local-slurm.bak"
    fi
    install -m 0644 "$tmp" "$LOCAL_SLURM_CONF"; rm -f "$tmp"
    _ls_log "wrote $LOCAL_SLURM_CONF"
    return 0
}

local_slurm_start_munge() {
    local d=$LOCAL_SLURM_DIR p i
    if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
        if p=$(_ls_pid "$d/munged.pid" munged); then
            _ls_log "munged already running (pid $p)"
        else
            rm -f "$d/munged.pid"
            _ls_log "a munged not started by local-slurm answers: using it; 'down' leaves it alone"
        fi
        return 0
    fi
    if [ ! -s /etc/munge/munge.key ]; then
        # the Debian postinst normally creates it
        install -d -o munge -g munge -m 0700 /etc/munge
        runuser -u munge -- mungekey --create --keyfile=/etc/munge/munge.key
    fi
    chown munge:munge /etc/munge/munge.key; chmod 0600 /etc/munge/munge.key
    install -d -o munge -g munge -m 0755 /run/munge
    install -d -o munge -g munge -m 0700 /var/lib/munge /var/log/munge
    mkdir -p "$d"
    # munged wants to run as the owner of the key: the munge user. It daemonizes.
    runuser -u munge -- /usr/sbin/munged </dev/null >/dev/null 2>&1 \
        || { tail -n 5 /var/log/munge/munged.log >&2; _ls_die "munged failed to start"; return 1; }
    p=$(_ls_wait_pidfile /run/munge/munged.pid munged) || { _ls_die "munged pid file missing"; return 1; }
    echo "$p" >"$d/munged.pid"     # remember that *we* started this one
    for i in $(seq 50); do
        munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && { _ls_log "munged up (pid $p)"; return 0; }
        sleep 0.1
    done
    _ls_die "munged does not answer; see /var/log/munge/munged.log"
}

local_slurm_start() {
    local d=$LOCAL_SLURM_DIR p n
    if p=$(_ls_pid "$d/slurmctld.pid" slurmctld); then
        _ls_log "slurmctld already running (pid $p)"
    else
        # daemonizes; -c: start from a clean state (no jobs recovered from an earlier run,
        # which after a crash would show as RUNNING and hold CPUs)
        slurmctld -f "$LOCAL_SLURM_CONF" -c </dev/null >/dev/null 2>&1 \
            || { tail -n 20 "$d/log/slurmctld.log" >&2; _ls_die "slurmctld failed"; return 1; }
        p=$(_ls_wait_pidfile "$d/slurmctld.pid" slurmctld) \
            || { tail -n 20 "$d/log/slurmctld.log" >&2; _ls_die "slurmctld died"; return 1; }
        _ls_log "slurmctld started (pid $p)"
    fi
    for n in $(_ls_nodes); do
        if p=$(_ls_pid "$d/slurmd-$n.pid" slurmd); then
            _ls_log "slurmd $n already running (pid $p)"; continue
        fi
        # -N: node name independent of the machine's hostname; daemonizes
        slurmd -f "$LOCAL_SLURM_CONF" -N "$n" </dev/null >/dev/null 2>&1 \
            || { tail -n 20 "$d/log/slurmd-$n.log" >&2; _ls_die "slurmd $n failed"; return 1; }
        p=$(_ls_wait_pidfile "$d/slurmd-$n.pid" slurmd) \
            || { tail -n 20 "$d/log/slurmd-$n.log" >&2; _ls_die "slurmd $n died"; return 1; }
        _ls_log "slurmd $n started (pid $p)"
    done
}

local_slurm_wait_ready() {
    local t0=$SECONDS st="" nodes
    nodes=$(_ls_nodes | paste -sd,)
    while [ $((SECONDS - t0)) -lt "$LOCAL_SLURM_TIMEOUT" ]; do
        st=$(sinfo -h -N -n "$nodes" -o '%T' 2>/dev/null | sort -u | paste -sd, || true)
        case "$st" in
            idle|mixed|allocated|completing)
                # Nodes can show idle (recovered state) before their slurmd registered: prove the
                # whole path (munge, slurmctld, slurmd, slurmstepd) with a real step on every node.
                if timeout 20 srun -N "$LOCAL_SLURM_NODES" -n "$LOCAL_SLURM_NODES" -J local-slurm-ready \
                        --mpi=none -t 1 true >/dev/null 2>&1; then
                    _ls_log "nodes $nodes: $st; test step ran; ready after $((SECONDS - t0)) s"; return 0
                fi ;;
            *drain*|*down*) scontrol update nodename="$nodes" state=resume >/dev/null 2>&1 || true ;;
        esac
        sleep 0.5
    done
    sinfo -N -l >&2 || true
    tail -n 20 "$LOCAL_SLURM_DIR"/log/*.log >&2 || true
    _ls_die "not ready after ${LOCAL_SLURM_TIMEOUT}s (node states: '${st}')"
}

_ls_running() {
    local f
    _ls_pid "$LOCAL_SLURM_DIR/slurmctld.pid" slurmctld && return 0
    for f in "$LOCAL_SLURM_DIR"/slurmd-*.pid; do _ls_pid "$f" slurmd && return 0; done
    return 1
}

local_slurm_up() {
    [ "$(id -u)" = 0 ] || { _ls_die "must run as root"; return 1; }
    local_slurm_install || return 1
    if local_slurm_write_conf && _ls_running >/dev/null; then
        _ls_log "slurm.conf changed: restarting the slurm daemons"
        local_slurm_down || return 1
        local_slurm_write_conf || true   # down does not remove it; keep it as written
    fi
    local_slurm_start_munge || return 1
    local_slurm_start || return 1
    local_slurm_wait_ready
}

# Stop one daemon by the PID in its pid file: SIGTERM, wait up to 10 s, then SIGKILL.
_ls_stop_pid() {
    local name=$1 f=$2 p i
    p=$(_ls_pid "$f" "$name") || { rm -f "$f"; return 0; }
    kill -TERM "$p" 2>/dev/null || true
    for i in $(seq 100); do _ls_alive "$p" || break; sleep 0.1; done
    if _ls_alive "$p"; then _ls_log "$name (pid $p) ignored SIGTERM, sending SIGKILL"; kill -KILL "$p" 2>/dev/null || true; fi
    _ls_log "$name (pid $p) stopped"
    rm -f "$f"
}

# PIDs of all descendants of the given PIDs (from /proc/*/stat).
_ls_descendants() {
    local f pid rest ppid out="" todo=" $* " changed=1
    declare -A parent=()
    for f in /proc/[0-9]*/stat; do
        rest=$(sed 's/.*) //' "$f" 2>/dev/null) || continue
        pid=${f#/proc/}; pid=${pid%/stat}
        ppid=$(echo "$rest" | cut -d' ' -f2)
        parent[$pid]=$ppid
    done
    while [ $changed = 1 ]; do
        changed=0
        for pid in "${!parent[@]}"; do
            case "$todo" in *" ${parent[$pid]} "*) case "$todo" in *" $pid "*) ;; *) todo="$todo$pid "; out="$out $pid"; changed=1 ;; esac ;; esac
        done
    done
    echo "${out# }"
}

# slurmstepd processes of this cluster that outlived their job (e.g. slurmctld died, or a stuck
# step), and their job processes. Each such slurmstepd keeps its node's slurmd log file under
# $LOCAL_SLURM_DIR/log open: that tells ours from anyone else's.
_ls_kill_stray_stepds() {
    local c p fd pids=() more=() i alive
    for c in /proc/[0-9]*/comm; do
        [ "$(cat "$c" 2>/dev/null)" = slurmstepd ] || continue
        p=${c#/proc/}; p=${p%/comm}
        for fd in "/proc/$p/fd/"*; do
            case "$(readlink "$fd" 2>/dev/null)" in "$LOCAL_SLURM_DIR/log/"*) pids+=("$p"); break ;; esac
        done
    done
    [ ${#pids[@]} -gt 0 ] || return 0
    read -ra more <<<"$(_ls_descendants "${pids[@]}")"
    pids+=("${more[@]}")
    _ls_log "stray slurmstepd and job processes: ${pids[*]}: SIGTERM, then SIGKILL"
    kill -TERM "${pids[@]}" 2>/dev/null || true
    for i in $(seq 30); do
        alive=""
        for p in "${pids[@]}"; do _ls_alive "$p" && alive="$alive $p"; done
        [ -z "$alive" ] && return 0
        sleep 0.1
    done
    # shellcheck disable=SC2086  # a list of PIDs
    kill -KILL $alive 2>/dev/null || true
    return 0
}

# Stops only what this script started (pid files under $LOCAL_SLURM_DIR).
local_slurm_down() {
    local d=$LOCAL_SLURM_DIR i ids f
    if _ls_pid "$d/slurmctld.pid" slurmctld >/dev/null; then
        # cancel all jobs first, so that no slurmstepd or job process outlives the daemons
        ids=$(squeue -h -o %i 2>/dev/null || true)
        if [ -n "$ids" ]; then
            _ls_log "cancelling jobs: ${ids//$'\n'/ }"
            # shellcheck disable=SC2086  # a list of job ids
            scancel --full $ids 2>/dev/null || true
            for i in $(seq 100); do [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break; sleep 0.2; done
        fi
    fi
    for f in "$d"/slurmd-*.pid; do [ -e "$f" ] && _ls_stop_pid slurmd "$f"; done
    _ls_kill_stray_stepds
    _ls_stop_pid slurmctld "$d/slurmctld.pid"
    _ls_stop_pid munged "$d/munged.pid"
    return 0
}

local_slurm_status() {
    local d=$LOCAL_SLURM_DIR p f
    if p=$(_ls_pid "$d/slurmctld.pid" slurmctld); then echo "slurmctld: running (pid $p)"; else echo "slurmctld: not running"; fi
    for f in "$d"/slurmd-*.pid; do
        [ -e "$f" ] || continue
        if p=$(_ls_pid "$f" slurmd); then n=${f##*/slurmd-}; echo "slurmd ${n%.pid}: running (pid $p)"; fi
    done
    if p=$(_ls_pid "$d/munged.pid" munged); then echo "munged: running (pid $p)"
    elif munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then echo "munged: running, not started by local-slurm"
    else echo "munged: not running"; fi
    sinfo 2>/dev/null || true
    squeue 2>/dev/null || true
}

# Wait for jobs (ids from `sbatch --parsable`; array jobs included) to leave the queue,
# polling every 0.5 s (sbatch --wait polls every 2..10 s). Prints every job/array task that
# did not end COMPLETED to stderr and returns 1 then. Works while MinJobAge (300 s) has not passed.
local_slurm_wait_jobs() {
    local t0=$SECONDS limit=${LOCAL_SLURM_JOB_TIMEOUT:-600} ids j bad=0
    [ $# -gt 0 ] || return 0
    ids=$(IFS=,; echo "$*")
    while [ -n "$(squeue -h -j "$ids" -o %i 2>/dev/null)" ]; do
        [ $((SECONDS - t0)) -ge "$limit" ] && { _ls_die "jobs $ids still queued after ${limit}s"; return 1; }
        sleep 0.5
    done
    for j in "$@"; do
        scontrol -o show job "$j" | awk '{ id = ""; st = ""; ec = ""; nm = ""; at = "";
            for (i = 1; i <= NF; i++) {
                if ($i ~ /^JobId=/) id = $i; if ($i ~ /^JobState=/) st = $i; if ($i ~ /^ExitCode=/) ec = $i
                if ($i ~ /^JobName=/) nm = $i; if ($i ~ /^ArrayTaskId=/) at = " " $i }
            if (st != "JobState=COMPLETED") { print "local-slurm: " id " " st " " ec " " nm at > "/dev/stderr"; bad = 1 } }
            END { exit bad }' || bad=1
    done
    return $bad
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -uo pipefail
    case "${1:-}" in
        up) local_slurm_up ;;
        down) local_slurm_down ;;
        status) local_slurm_status ;;
        install) local_slurm_install ;;
        wait) shift; local_slurm_wait_jobs "$@" ;;
        *) echo "usage: $0 up|down|status|install|wait JOBID..." >&2; exit 2 ;;
    esac
fi
