#!/usr/bin/env bash
# Opt-in end-to-end check of scale-out on a real Slurm (docs/scale-out.md):
# starts a one-node cluster on this machine from Debian's slurm-wlm and munge
# (slurmctld and slurmd on localhost), submits a 2-task array of a small suite
# with no partition flags, merges the reports and checks that each task ran
# its own partition, as Slurm's variables said. Needs root (it installs the
# packages and starts the daemons) and a built tracebench.
#
#   scripts/slurm_e2e.sh [build/tracebench]
set -euo pipefail

tracebench=$(realpath "${1:-build/tracebench}")
[[ -x "$tracebench" ]] || { echo "slurm_e2e: no tracebench at $tracebench; run make build" >&2; exit 2; }
[[ $(id -u) == 0 ]] || { echo "slurm_e2e: run as root (it starts slurmctld, slurmd, munged)" >&2; exit 2; }

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends slurm-wlm munge >/dev/null
fi

work=$(mktemp -d /tmp/tracebench-slurm.XXXXXX)
conf_dir=/etc/slurm
mkdir -p "$conf_dir" /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge
# A node smaller than the machine, so that Slurm always finds it fits.
memory_mb=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2 ))
cat > "$conf_dir/slurm.conf" <<EOF
ClusterName=tracebench
SlurmctldHost=localhost
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$memory_mb State=UNKNOWN
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF

stop_daemons() {
  pkill -x slurmd 2>/dev/null || true
  pkill -x slurmctld 2>/dev/null || true
  pkill -x munged 2>/dev/null || true
}
trap stop_daemons EXIT

[[ -s /etc/munge/munge.key ]] || mungekey --create --force
chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge 2>/dev/null || true
runuser -u munge -- /usr/sbin/munged
slurmctld
slurmd -N localhost
for _ in $(seq 60); do
  sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed)' && break
  sleep 1
done
sinfo -h -o '%P %T %c' | grep -qE 'idle|mixed' || { echo "slurm_e2e: the node never became idle:" >&2; sinfo >&2; exit 1; }

# No partition flags: each array task takes its partition from Slurm.
cat > "$work/bench.sbatch" <<EOF
#!/bin/bash
#SBATCH --array=0-1
#SBATCH --output=$work/task-%a.log
"$tracebench" --performance --backend=eager,ts -k ^Linear -k small_convnet -n 3 \
  --json "$work/part-\${SLURM_ARRAY_TASK_ID}.json"
EOF
job=$(sbatch --parsable "$work/bench.sbatch")
echo "slurm_e2e: submitted array job $job"
for _ in $(seq 600); do
  [[ -z $(squeue -h -j "$job" 2>/dev/null) ]] && break
  sleep 1
done
cat "$work"/task-*.log

"$tracebench" merge "$work"/part-*.json -o "$work/run.json"
/usr/bin/python3 - "$work" <<'EOF'
import json, sys
work = sys.argv[1]
parts = [json.load(open(f"{work}/part-{i}.json")) for i in (0, 1)]
for i, part in enumerate(parts):
    config = part["config"]
    assert config["partition_source"] == "slurm", config
    assert (config["total_partitions"], config["partition_id"]) == (2, i), config
models = [{row["model"] for row in part["rows"]} for part in parts]
assert models == [{"LinearModel"}, {"small_convnet"}], models
merged = json.load(open(f"{work}/run.json"))
assert len(merged["rows"]) == 4 and all(r["status"] == "pass" for r in merged["rows"]), merged["rows"]
print(f"slurm_e2e: pass: 2 array tasks, partitions {models}, {len(merged['rows'])} rows merged")
EOF
