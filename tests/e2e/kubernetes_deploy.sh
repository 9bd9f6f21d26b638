#!/usr/bin/env bash
# The Kubernetes deployment, validated offline (docs/kubernetes.md):
#  - deploy/kubernetes/*.yaml parse (python3-yaml) and every object checks
#    field by field against python3-kubernetes' API models
#    (tests/lib/k8s_validate.py); the DaemonSet's privileges are what the
#    docs say (hostPID, read-only /proc, /sys, /var/log/pods; SYS_PTRACE,
#    DAC_READ_SEARCH, PERFMON added, ALL dropped), and the Service and
#    ServiceMonitor reach its port;
#  - kubectl apply --dry-run=client on them, against a stub API server that
#    answers discovery only (tests/lib/k8s_stub_api.py: no cluster here);
#  - the DaemonSet's arguments, run by this tree's gpu-telemetry on a
#    synthetic /proc, /sys and kubelet log layout: a pod's GPU client is
#    reported by container with its namespace and pod;
#  - the "GPU use per pod" dashboard is what generate.py writes, and every
#    panel and variable gives exact values under promtool
#    (tests/lib/dashboard_promtool.py, the cases beside the dashboard); the
#    PromQL of docs/kubernetes.md is the one gpu-exporter-rules.test.yml
#    checks;
#  - with GPU_TELEMETRY_IMAGE_TEST=1 (about 10 minutes on 2 cores: the
#    Debian packages, then mmdebstrap; GPU_TELEMETRY_IMAGE_DEBS=DIR takes
#    built .debs instead): deploy/image/build.sh builds the image with
#    buildah, its configuration is read back, and the image's gpu-telemetry
#    runs in its root filesystem.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
source tests/lib/backends.sh
source tests/lib/fakeproc.sh
B=${BUILD:-build}
K=deploy/kubernetes
PY=/usr/bin/python3
NAME="kubernetes deployment"
tap_is_diag() { # expected, actual, name, text shown (as comments) on a mismatch
  tap_is "$1" "$2" "$3"
  [[ $1 == "$2" ]] || sed 's/^/# /' <<<"$4" | head -20
}

require_cmd "$NAME" "$PY" promtool
"$PY" -c 'import yaml' 2>/dev/null || require_skip "$NAME" "python3-yaml is not installed"

T=$(mktemp -d "${TMPDIR:-/tmp}/k8s-deploy.XXXXXX")
PIDS=()
cleanup() {
  local p
  for p in "${PIDS[@]}"; do be_stop "$p"; done
  fp_fini
  rm -rf "$T"
}
trap cleanup EXIT

# ---- the manifests ----
tap_is "Namespace DaemonSet Service ServiceMonitor" \
  "$("$PY" -c '
import sys, yaml
kinds = [d["kind"] for f in sys.argv[1:] for d in yaml.safe_load_all(open(f)) if d]
print(" ".join(kinds))' $K/gpu-telemetry.yaml $K/servicemonitor.yaml)" \
  "the manifests parse: Namespace, DaemonSet, Service, ServiceMonitor"

if "$PY" -c 'import kubernetes' 2>/dev/null; then
  while IFS=$'\t' read -r verdict what diag; do
    if [[ $verdict == ok ]]; then tap_ok "API model: $what"; else tap_fail "API model: $what" && echo "# $diag"; fi
  done < <("$PY" tests/lib/k8s_validate.py $K/*.yaml)
  # the check can fail: a misspelt field and a string port
  printf 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: x}\nspec:\n  template:\n    spec:\n      hostPid: true\n      containers:\n      - name: a\n        ports: [{containerPort: "9470"}]\n' >"$T/bad.yaml"
  tap_is 'fail: .spec.template.spec.hostPid: unknown field; .spec.template.spec.containers[0].ports[0].containerPort: an integer expected, got '"'9470'" \
    "$("$PY" tests/lib/k8s_validate.py "$T/bad.yaml" | awk -F'\t' '{print $1 ": " $3}')" \
    "API model: a misspelt field and a string port are named"
else
  tap_skip "API model checks" "python3-kubernetes is not installed"
fi

# the settings docs/kubernetes.md promises, read from the DaemonSet
facts=$("$PY" - $K/gpu-telemetry.yaml $K/servicemonitor.yaml <<'PY'
import sys, yaml
docs = [d for f in sys.argv[1:] for d in yaml.safe_load_all(open(f)) if d]
by = {d["kind"]: d for d in docs}
pod = by["DaemonSet"]["spec"]["template"]["spec"]
c = pod["containers"][0]
sc = c["securityContext"]
vols = {v["name"]: v["hostPath"]["path"] for v in pod["volumes"]}
mounts = sorted(f'{vols[m["name"]]}:{m["mountPath"]}:{"ro" if m.get("readOnly") else "rw"}'
                for m in c["volumeMounts"])
port = {p["name"]: p["containerPort"] for p in c["ports"]}
svc = by["Service"]["spec"]
sm = by["ServiceMonitor"]["spec"]
sel = by["DaemonSet"]["spec"]["template"]["metadata"]["labels"]
print("hostPID", pod.get("hostPID"))
print("hostNetwork", pod.get("hostNetwork", False))
print("add", ",".join(sc["capabilities"]["add"]))
print("drop", ",".join(sc["capabilities"]["drop"]))
print("privileged", sc.get("privileged"), "escalation", sc.get("allowPrivilegeEscalation"),
      "rorootfs", sc.get("readOnlyRootFilesystem"), "nonroot", sc.get("runAsNonRoot"))
print("mounts", " ".join(mounts))
print("port", port.get("metrics"))
print("service", svc["ports"][0]["name"], svc["ports"][0]["targetPort"],
      all(sel.get(k) == v for k, v in svc["selector"].items()))
print("monitor", sm["endpoints"][0]["port"], sm["endpoints"][0].get("honorLabels"),
      all(by["Service"]["metadata"]["labels"].get(k) == v
          for k, v in sm["selector"]["matchLabels"].items()),
      by["Service"]["metadata"]["namespace"] in sm["namespaceSelector"]["matchNames"])
print("args", " ".join(c["args"]))
PY
)
fact() { sed -n "s/^$1 //p" <<<"$facts"; }
tap_is True "$(fact hostPID)" "DaemonSet: hostPID"
tap_is False "$(fact hostNetwork)" "DaemonSet: not on the host's network"
tap_is "SYS_PTRACE,DAC_READ_SEARCH,PERFMON" "$(fact add)" "DaemonSet: adds SYS_PTRACE, DAC_READ_SEARCH, PERFMON only"
tap_is "ALL" "$(fact drop)" "DaemonSet: drops ALL"
tap_is "False escalation False rorootfs True nonroot False" "$(fact privileged)" \
  "DaemonSet: not privileged, no escalation, read-only root, runAsNonRoot false (docs say why)"
tap_is "/proc:/host/proc:ro /sys:/host/sys:ro /var/log/containers:/var/log/containers:ro /var/log/pods:/var/log/pods:ro" \
  "$(fact mounts)" "DaemonSet: /proc, /sys, /var/log/pods and /var/log/containers, read-only"
tap_is 9470 "$(fact port)" "DaemonSet: the metrics port is 9470"
tap_is "metrics metrics True" "$(fact service)" "Service: selects the DaemonSet's pods, port metrics"
tap_is "metrics True True True" "$(fact monitor)" \
  "ServiceMonitor: the Service's port, honorLabels, its labels and namespace"
ARGS=$(fact args)
for a in --listen=:9470 --drm_fdinfo.ReportBy=Container --drm_fdinfo.PodLogRoot=/var/log/pods \
  --drm_fdinfo.ProcRoot=/host/proc; do
  tap_check "DaemonSet: gpu-telemetry gets $a" grep -qw -- "$a" <<<"${ARGS// /$'\n'}"
done

# ---- kubectl apply --dry-run=client ----
if command -v kubectl >/dev/null; then
  "$PY" tests/lib/k8s_stub_api.py "$T/stub.port" 2>"$T/stub.log" &
  PIDS+=($!)
  deadline=$((SECONDS + 20))
  while [[ ! -s $T/stub.port ]] && ((SECONDS < deadline)); do sleep 0.1; done
  tap_check "stub API server: listening" test -s "$T/stub.port"
  out=$(KUBECONFIG=$T/no-kubeconfig kubectl --server="http://127.0.0.1:$(cat "$T/stub.port")" \
    apply --dry-run=client --validate=false -f $K/ 2>&1)
  tap_is_diag 0 $? "kubectl apply --dry-run=client -f $K/: exit 0" "$out"
  tap_is $'namespace/gpu-telemetry created (dry run)\ndaemonset.apps/gpu-telemetry created (dry run)\nservice/gpu-telemetry created (dry run)\nservicemonitor.monitoring.coreos.com/gpu-telemetry created (dry run)' \
    "$out" "kubectl apply --dry-run=client: each object would be created"
  tap_is "" "$(grep -vE '^GET ' "$T/stub.log")" "kubectl: nothing but reads reached the stub"
else
  tap_skip "kubectl apply --dry-run=client" \
    "no kubectl (Debian's kubernetes-client; where another kubectl owns /usr/bin/kubectl it cannot install)"
fi

# ---- the DaemonSet's arguments, run ----
if [[ $(id -u) -ne 0 ]]; then
  tap_skip "the DaemonSet's arguments on a synthetic node" "needs root for mknod"
else
  fp_init
  fp_device 226 0 card0 0000:00:02.0 i915
  uid=6f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d
  cid=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
  fp_process 100 trainer "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${uid//-/_}.slice/cri-containerd-$cid.scope"
  fp_fd 100 3 card0 "$(fp_i915 7 1500000000)"
  mkdir -p "$T/pods/ml_train-a_$uid/worker" "$T/containers"
  : >"$T/pods/ml_train-a_$uid/worker/0.log"
  ln -s "$T/pods/ml_train-a_$uid/worker/0.log" "$T/containers/train-a_ml_worker-$cid.log"
  run_args=()
  for a in $ARGS; do
    case $a in
    --listen=*) ;;
    *) a=${a//\/host\/proc/$FP/proc}
       a=${a//\/host\/sys/$FP/sys}
       run_args+=("${a//\/var\/log\/pods/$T/pods}") ;;
    esac
  done
  "$B/gpu-telemetry" "${run_args[@]}" --drm_fdinfo.DebugfsRoot="$FP/debug" \
    --once --window=0.3 --format=prometheus >"$T/node.prom" 2>"$T/node.err"
  rc=$?
  if [[ $rc -eq 2 ]] && grep -qE 'Container|PodLogRoot' "$T/node.err"; then
    tap_skip "the DaemonSet's arguments on a synthetic node" \
      "this tree's drm_fdinfo has no ReportBy Container yet: $(head -1 "$T/node.err")"
  else
    tap_is_diag 0 "$rc" "the DaemonSet's arguments: gpu-telemetry exits 0" "$(cat "$T/node.err")"
    tap_is 1 "$(grep '^drm_engine_busy_seconds_total{' "$T/node.prom" | grep 'scope="container"' |
      grep 'namespace="ml"' | grep -c 'pod="train-a"')" \
      "the DaemonSet's arguments: the pod's client by container, with namespace and pod"
    out=$(promtool check metrics <"$T/node.prom" 2>&1)
    tap_is "0:" "$?:$out" "the DaemonSet's arguments: promtool check metrics"
  fi
fi

# ---- the dashboard and the queries ----
mkdir -p "$T/dash"
python3 dashboards/grafana/generate.py "$T/dash"
tap_check "dashboards/grafana/gpu-pods-kubernetes.json is what generate.py writes" \
  cmp -s "$T/dash/gpu-pods-kubernetes.json" dashboards/grafana/gpu-pods-kubernetes.json
tap_is "namespace pod device" "$("$PY" -c '
import json, sys
print(" ".join(v["name"] for v in json.load(open(sys.argv[1]))["templating"]["list"]))' \
  dashboards/grafana/gpu-pods-kubernetes.json)" "the dashboard's variables: namespace, pod, device"
"$PY" tests/lib/dashboard_promtool.py dashboards/grafana/gpu-pods-kubernetes.json \
  dashboards/grafana/gpu-pods-kubernetes.cases.yml "$T/pods-test.yml" 2>"$T/gen.err"
tap_is_diag 0 $? "dashboard_promtool: every panel has its case" "$(cat "$T/gen.err")"
out=$(promtool test rules "$T/pods-test.yml" 2>&1)
tap_is_diag 0 $? "promtool test rules: every panel and variable of the pod dashboard, exact values" "$out"
out=$(cd dashboards/prometheus && promtool test rules gpu-exporter-rules.test.yml 2>&1)
tap_is_diag 0 $? "promtool test rules: the per-pod rules and the kube_pod_labels joins" "$out"
# each ```promql block of docs/kubernetes.md is an expr the rules test checks
docs_vs_test=$("$PY" - docs/kubernetes.md dashboards/prometheus/gpu-exporter-rules.test.yml <<'PY'
import re, sys, yaml
norm = lambda s: " ".join(s.split())
blocks = re.findall(r"```promql\n(.*?)```", open(sys.argv[1]).read(), re.S)
exprs = {norm(c["expr"]) for t in yaml.safe_load(open(sys.argv[2]))["tests"]
         for c in t.get("promql_expr_test", [])}
print(len(blocks), sum(norm(b) in exprs for b in blocks))
PY
)
tap_is "2 2" "$docs_vs_test" "docs/kubernetes.md: both PromQL joins are the tested ones"

# ---- the image ----
out=$(deploy/image/build.sh --bogus x 2>&1)
tap_is "1:build.sh: unknown option --bogus (see --help)" "$?:$out" "build.sh: an unknown option is named"
out=$(deploy/image/build.sh --tag 2>&1)
tap_is "1:build.sh: --tag needs a value" "$?:$out" "build.sh: an option without its value"
if [[ $(id -u) -eq 0 ]] && command -v mmdebstrap >/dev/null && command -v buildah >/dev/null; then
  out=$(deploy/image/build.sh --debs "$T/no-such-dir" 2>&1)
  tap_is "1:build.sh: --debs $T/no-such-dir: not a directory" "$?:$out" "build.sh: a --debs that is no directory"
  mkdir -p "$T/empty"
  out=$(deploy/image/build.sh --debs "$T/empty" 2>&1)
  tap_is "1:build.sh: no gpu-telemetry-tools_*.deb in $T/empty" "$?:$out" "build.sh: a --debs without the package"
fi
if [[ ${GPU_TELEMETRY_IMAGE_TEST:-0} != 1 ]]; then
  tap_skip "the image build (deploy/image/build.sh)" \
    "about 10 minutes on 2 cores (Debian packages, mmdebstrap): set GPU_TELEMETRY_IMAGE_TEST=1"
elif [[ $(id -u) -ne 0 ]] || ! command -v mmdebstrap >/dev/null || ! command -v buildah >/dev/null; then
  tap_skip "the image build (deploy/image/build.sh)" "needs root, mmdebstrap and buildah (tools/deps.sh image)"
else
  tag=localhost/gpu-telemetry-test-$$:latest
  debs=()
  [[ -n ${GPU_TELEMETRY_IMAGE_DEBS:-} ]] && debs=(--debs "$GPU_TELEMETRY_IMAGE_DEBS")
  deploy/image/build.sh "${debs[@]}" --tag "$tag" --workdir "$T/image" --output "$T/image.oci.tar" \
    >"$T/build.out" 2>"$T/build.err"
  rc=$?
  # a machine that refuses buildah's storage or mmdebstrap's chroot mounts
  if [[ $rc -ne 0 ]] && grep -qE '(buildah build|mmdebstrap) failed.*(mount|unshare|[Pp]ermission denied|[Oo]peration not permitted)' "$T/build.err"; then
    tap_skip "the image build" "this machine does not allow it: $(tail -1 "$T/build.err")"
  else
    tap_is_diag 0 "$rc" "deploy/image/build.sh: exit 0" "$(tail -10 "$T/build.err")"
    tap_is "$tag" "$(cat "$T/build.out")" "build.sh prints the tag"
    tap_check "the OCI archive is written" test -s "$T/image.oci.tar"
    cfg=$(buildah inspect --type image "$tag" 2>&1)
    tap_is '["/usr/bin/gpu-telemetry"] ["--listen=:9470"] 0:0 9470/tcp' \
      "$("$PY" -c 'import json,sys; c=json.loads(sys.argv[1])["OCIv1"]["config"]; print(json.dumps(c.get("Entrypoint")), json.dumps(c.get("Cmd")), c.get("User"), " ".join(c.get("ExposedPorts", {})))' "$cfg" 2>&1)" \
      "the image: entry point, default argument, user, port"
    tap_is "$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)" \
      "$("$PY" -c 'import json,sys; print(json.loads(sys.argv[1])["OCIv1"]["config"]["Labels"]["org.opencontainers.image.version"])' "$cfg" 2>&1)" \
      "the image: labelled with the package version"
    ctr=$(buildah from --pull=never "$tag" 2>/dev/null)
    mnt=$(buildah mount "$ctr" 2>/dev/null)
    out=$(chroot "$mnt" /usr/bin/gpu-telemetry --version 2>&1)
    tap_check "the image's gpu-telemetry runs in its root filesystem ($out)" grep -q '^gpu-telemetry ' <<<"$out"
    tap_check "the image has no package documentation but the copyright files" \
      test -z "$(find "$mnt/usr/share/doc" -type f ! -name copyright | head -1)"
    buildah umount "$ctr" >/dev/null 2>&1
    buildah rm "$ctr" >/dev/null 2>&1
    buildah rmi "$tag" >/dev/null 2>&1
  fi
fi
tap_done
