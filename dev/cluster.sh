#!/usr/bin/env bash
# A kaas cluster on one machine, standing in for Kubernetes: a development API server (dev/apiserver: fabric8's mock
# store in CRUD mode behind kube-apiserver's discovery and protocol, plain HTTP on 127.0.0.1) serves the controller
# Lease, the brokers' EndpointSlices and the KafkaTopics; the real kaas-operator.jar (leader election off) and N
# processes of the real kaas.jar share DIR/volume as their ReadWriteMany volume; this script plays the Deployment and
# the StatefulSet (it starts, kills and restarts the pods kaas-0..kaas-N-1, each with a Pod resource that declares the
# kaas.rs/PartitionsReady readiness gate) and the endpoints controller (each broker's EndpointSlice, ready when its
# /readyz answers 200 and its pod's gate condition, which the broker sets, is True). Not Kubernetes: no kubelet, no
# scheduling, no RBAC, one machine.
# kubectl works against the API server: KUBECONFIG=DIR/kubeconfig kubectl get leases,endpointslices,kafkatopics
#
#   dev/cluster.sh start N DIR [BASE_PORT]   start the API server, the operator and N brokers; returns once every /readyz
#                                            (the brokers' and the operator's) is 200, printing the bootstrap list last
#   dev/cluster.sh bootstrap DIR             print the bootstrap list
#   dev/cluster.sh kill DIR ID               SIGKILL broker ID (its endpoint stays, not ready: a crashed pod)
#   dev/cluster.sh restart DIR ID            start broker ID again (after kill), and wait for its /readyz
#   dev/cluster.sh stop DIR                  SIGTERM every broker (each drains), the operator, then the API server
#   dev/cluster.sh api DIR stop|start        take the API server away, or bring it back (empty: no KafkaTopic survives)
#
# Ports from BASE_PORT (19092): broker i listens on BASE+i (Kafka, plaintext), BASE+100+i (heartbeats), BASE+200+i
# (health) and BASE+400+i (Kafka, SASL_PLAINTEXT with SCRAM-SHA-512: the KafkaUsers' credentials); the API server on
# BASE+300 (with the chart's CRDs), its kubeconfig in DIR/kubeconfig; the operator's /healthz and /readyz on BASE+301.
# Logs: DIR/broker-ID.log, DIR/operator.log, DIR/apiserver.log, DIR/endpoints.log.
# KAAS_JAVA_OPTS and any KAAS_* variables in the environment reach every broker and the operator (but for the ports and
# KAAS_LISTENERS, which this script sets).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
KAAS_JAR="${KAAS_JAR:-$ROOT/bootstrap/target/kaas.jar}"
API_JAR="${API_JAR:-$ROOT/dev/apiserver/target/kaas-dev-apiserver.jar}"
OPERATOR_JAR="${OPERATOR_JAR:-$ROOT/operator/target/kaas-operator.jar}"
CRDS="$ROOT/helm/kaas/crds"
NAMESPACE=default
SERVICE=kaas-brokers

usage() { sed -n '12,25p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "cluster.sh: $*" >&2; exit 1; }

load() { # DIR
  [ -f "$1/cluster.env" ] || die "no cluster in $1 (start one first)"
  # shellcheck disable=SC1091
  . "$1/cluster.env"
}

build() {
  if [ ! -f "$KAAS_JAR" ] || [ ! -f "$API_JAR" ] || [ ! -f "$OPERATOR_JAR" ]; then
    echo "building kaas.jar, kaas-operator.jar and the development API server ..." >&2
    (cd "$ROOT" && mvn -B -q -DskipTests package -pl bootstrap,dev/apiserver,operator -am)
  fi
}

api_url() { echo "http://127.0.0.1:$API_PORT"; }

start_api() { # DIR
  java -jar "$API_JAR" --kubeconfig "$1/kubeconfig" "$API_PORT" >> "$1/apiserver.log" 2>&1 &
  echo $! > "$1/apiserver.pid"
  for _ in $(seq 1 300); do
    curl -sf --max-time 2 "$(api_url)/api/v1/namespaces/$NAMESPACE/pods" -o /dev/null && { apply_crds; return 0; }
    kill -0 "$(cat "$1/apiserver.pid")" 2>/dev/null || die "the API server did not start: see $1/apiserver.log"
    sleep 0.1
  done
  die "the API server did not answer within 30 s: see $1/apiserver.log"
}

# The chart's CRDs, as helm install puts them in a cluster before anything else: kubectl needs them to know kt, ku.
apply_crds() {
  local crd
  for crd in "$CRDS"/*.yml; do
    curl -sf --max-time 5 -X POST -H 'Content-Type: application/yaml' --data-binary "@$crd" \
      "$(api_url)/apis/apiextensions.k8s.io/v1/customresourcedefinitions" -o /dev/null \
      || die "the API server refused the CRD $crd"
  done
}

# One EndpointSlice per broker (each has its own ports, and a slice's ports are shared by its endpoints), as the
# endpoints controller would keep it: the endpoint names its pod, carries the address and the pod's readiness.
slice_json() { # ID READY
  cat <<JSON
{"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice",
 "metadata":{"name":"$SERVICE-$1","namespace":"$NAMESPACE","labels":{"kubernetes.io/service-name":"$SERVICE"}},
 "addressType":"IPv4",
 "endpoints":[{"addresses":["127.0.0.1"],"conditions":{"ready":$2},"targetRef":{"kind":"Pod","name":"kaas-$1","namespace":"$NAMESPACE"}}],
 "ports":[{"name":"kafka","port":$((BASE + $1)),"protocol":"TCP"},{"name":"heartbeat","port":$((BASE + 100 + $1)),"protocol":"TCP"}]}
JSON
}

put_slice() { # ID READY
  local url
  url="$(api_url)/apis/discovery.k8s.io/v1/namespaces/$NAMESPACE/endpointslices"
  if ! curl -sf --max-time 5 -X PUT -H 'Content-Type: application/json' --data "$(slice_json "$1" "$2")" "$url/$SERVICE-$1" -o /dev/null; then
    curl -sf --max-time 5 -X POST -H 'Content-Type: application/json' --data "$(slice_json "$1" "$2")" "$url" -o /dev/null || return 1
  fi
}

ready() { # ID
  [ "$(curl -s --max-time 2 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$((BASE + 200 + $1))/readyz" 2>/dev/null)" = 200 ]
}

# The pod a StatefulSet would make for broker ID, with the chart's readiness gate; recreated (empty status) on restart.
pod_json() { # ID
  cat <<JSON
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"kaas-$1","namespace":"$NAMESPACE","labels":{"app.kubernetes.io/name":"kaas"}},
 "spec":{"readinessGates":[{"conditionType":"kaas.rs/PartitionsReady"}],"containers":[{"name":"kaas","image":"kaas"}]}}
JSON
}

create_pod() { # ID
  local url
  url="$(api_url)/api/v1/namespaces/$NAMESPACE/pods"
  curl -s --max-time 5 -X DELETE "$url/kaas-$1" -o /dev/null || true
  curl -sf --max-time 5 -X POST -H 'Content-Type: application/json' --data "$(pod_json "$1")" "$url" -o /dev/null \
    || die "the API server refused pod kaas-$1"
}

# The readiness gate: the broker set kaas.rs/PartitionsReady=True on its pod.
gate_open() { # ID
  curl -sf --max-time 5 "$(api_url)/api/v1/namespaces/$NAMESPACE/pods/kaas-$1" | tr -d ' \n' \
    | grep -o '{[^{}]*"type":"kaas.rs/PartitionsReady"[^{}]*}' | grep -q '"status":"True"'
}

# The endpoints controller: every second, each broker's slice carries its current readiness (and is recreated if the
# API server lost it).
endpoints_loop() { # DIR
  declare -A last=()
  while true; do
    for id in $(seq 0 $((N - 1))); do
      local now=false
      ready "$id" && gate_open "$id" && now=true
      local have
      have=$(curl -sf --max-time 5 "$(api_url)/apis/discovery.k8s.io/v1/namespaces/$NAMESPACE/endpointslices/$SERVICE-$id" \
        | grep -o '"ready" *: *[a-z]*' | grep -o '[a-z]*$' || echo missing)
      if [ "$have" != "$now" ]; then
        put_slice "$id" "$now" && [ "${last[$id]:-}" != "$now" ] && echo "$(date -u +%T) kaas-$id ready=$now" >> "$1/endpoints.log"
        last[$id]=$now
      fi
    done
    sleep 1
  done
}

# The chart's plain and authed listeners, each broker on its own ports: the primary plaintext one (KAAS_PORT, the
# slice's kafka port) and the SCRAM one 400 further, as far from the primary on every broker (so peers are advertised
# right on both).
listeners_json() { # ID
  printf '[{"name":"plain","port":%s,"authentication":{"type":"none"}},{"name":"authed","port":%s,"authentication":{"type":"scram-sha-512"}}]' \
    $((BASE + $1)) $((BASE + 400 + $1))
}

start_broker() { # DIR ID
  local dir="$1" id="$2"
  create_pod "$id"
  env MY_POD_NAME="kaas-$id" KAAS_NAMESPACE="$NAMESPACE" KAAS_HEADLESS_SERVICE="$SERVICE" KAAS_PARTITIONS_READY_GATE=true \
    KAAS_BIND_HOST=127.0.0.1 KAAS_ADVERTISED_HOST=127.0.0.1 \
    KAAS_PORT=$((BASE + id)) KAAS_HEARTBEAT_PORT=$((BASE + 100 + id)) KAAS_HEALTH_PORT=$((BASE + 200 + id)) \
    KAAS_LISTENERS="$(listeners_json "$id")" \
    KAAS_DATA_DIR="$dir/volume" KAAS_CLUSTER_ID="$CLUSTER_ID" \
    KUBERNETES_MASTER="$(api_url)" KUBERNETES_AUTH_TRYKUBECONFIG=false KUBERNETES_AUTH_TRYSERVICEACCOUNT=false \
    KUBERNETES_NAMESPACE="$NAMESPACE" \
    java ${KAAS_JAVA_OPTS:-} -jar "$KAAS_JAR" >> "$dir/broker-$id.log" 2>&1 &
  echo $! > "$dir/broker-$id.pid"
}

# The operator, as its Deployment would run it: one replica, so without leader election (java-operator-sdk's election
# first asks for a SelfSubjectRulesReview, which the development API server does not answer).
start_operator() { # DIR
  local dir="$1"
  env KAAS_DATA_DIR="$dir/volume" KAAS_NAMESPACE="$NAMESPACE" MY_POD_NAME=kaas-operator-0 \
    KAAS_OPERATOR_LEADER_ELECTION=false \
    KAAS_OPERATOR_HEALTH_HOST=127.0.0.1 KAAS_OPERATOR_HEALTH_PORT=$((BASE + 301)) \
    KUBERNETES_MASTER="$(api_url)" KUBERNETES_AUTH_TRYKUBECONFIG=false KUBERNETES_AUTH_TRYSERVICEACCOUNT=false \
    KUBERNETES_NAMESPACE="$NAMESPACE" \
    java ${KAAS_JAVA_OPTS:-} -jar "$OPERATOR_JAR" >> "$dir/operator.log" 2>&1 &
  echo $! > "$dir/operator.pid"
}

await_operator() { # DIR
  local dir="$1"
  for _ in $(seq 1 1200); do
    [ "$(curl -s --max-time 2 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$((BASE + 301))/readyz" 2>/dev/null)" = 200 ] \
      && return 0
    kill -0 "$(cat "$dir/operator.pid")" 2>/dev/null || die "the operator exited: see $dir/operator.log"
    sleep 0.1
  done
  die "the operator was not ready (its /readyz) within 120 s: see $dir/operator.log"
}

await_ready() { # DIR ID...
  local dir="$1"; shift
  for id in "$@"; do
    for _ in $(seq 1 1200); do
      ready "$id" && continue 2
      kill -0 "$(cat "$dir/broker-$id.pid")" 2>/dev/null || die "broker $id exited: see $dir/broker-$id.log"
      sleep 0.1
    done
    die "broker $id not ready within 120 s: see $dir/broker-$id.log"
  done
}

bootstrap_list() {
  local list=""
  for id in $(seq 0 $((N - 1))); do list="$list${list:+,}127.0.0.1:$((BASE + id))"; done
  echo "$list"
}

stop_pid() { # FILE SIGNAL
  [ -f "$1" ] || return 0
  local pid; pid=$(cat "$1")
  kill "-$2" "$pid" 2>/dev/null || { rm -f "$1"; return 0; }
  for _ in $(seq 1 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$1"
}

[ $# -ge 2 ] || usage
VERB="$1"; DIR="$2"
case "$VERB" in
  start)
    [ $# -ge 3 ] || usage
    N="$2"; DIR="$3"; BASE="${4:-19092}"
    [[ "$N" =~ ^[1-9][0-9]*$ ]] || die "N must be a number of brokers, at least 1: $N"
    [ ! -f "$DIR/cluster.env" ] || die "$DIR already has a cluster (stop it, or use another directory)"
    mkdir -p "$DIR/volume"
    DIR="$(cd "$DIR" && pwd)"
    build
    API_PORT=$((BASE + 300))
    CLUSTER_ID="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')"
    printf 'N=%s\nBASE=%s\nAPI_PORT=%s\nCLUSTER_ID=%s\n' "$N" "$BASE" "$API_PORT" "$CLUSTER_ID" > "$DIR/cluster.env"
    start_api "$DIR"
    for id in $(seq 0 $((N - 1))); do put_slice "$id" false || die "cannot create the EndpointSlice of kaas-$id"; done
    (endpoints_loop "$DIR") > /dev/null 2>&1 &
    echo $! > "$DIR/endpoints.pid"
    start_operator "$DIR"
    for id in $(seq 0 $((N - 1))); do start_broker "$DIR" "$id"; done
    await_ready "$DIR" $(seq 0 $((N - 1)))
    await_operator "$DIR"
    bootstrap_list
    ;;
  bootstrap)
    load "$DIR"; bootstrap_list ;;
  kill)
    [ $# -ge 3 ] || usage
    load "$DIR"; stop_pid "$DIR/broker-$3.pid" 9 ;;
  restart)
    [ $# -ge 3 ] || usage
    load "$DIR"; DIR="$(cd "$DIR" && pwd)"
    stop_pid "$DIR/broker-$3.pid" 9
    start_broker "$DIR" "$3"; await_ready "$DIR" "$3" ;;
  stop)
    load "$DIR"
    for id in $(seq 0 $((N - 1))); do [ -f "$DIR/broker-$id.pid" ] && kill -TERM "$(cat "$DIR/broker-$id.pid")" 2>/dev/null || true; done
    for id in $(seq 0 $((N - 1))); do stop_pid "$DIR/broker-$id.pid" TERM; done
    stop_pid "$DIR/operator.pid" TERM
    stop_pid "$DIR/endpoints.pid" TERM
    stop_pid "$DIR/apiserver.pid" TERM
    rm -f "$DIR/cluster.env" ;;
  api)
    [ $# -ge 3 ] || usage
    load "$DIR"; DIR="$(cd "$DIR" && pwd)"
    case "$3" in
      stop) stop_pid "$DIR/apiserver.pid" TERM ;;
      start) start_api "$DIR" ;;
      *) usage ;;
    esac ;;
  *) usage ;;
esac
