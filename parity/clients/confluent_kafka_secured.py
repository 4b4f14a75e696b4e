"""librdkafka (confluent-kafka-python) over SASL_SSL and mTLS listeners: the broker's certificate checked against
a CA and its host name, SASL with SCRAM, PLAIN or OAUTHBEARER or a client certificate, then an admin call, a producer,
a consumer group that commits, and what a refused client sees. The principal's ACLs cover the topics and groups named
"parity-secured-<SUFFIX>..." only (the scenario grants them), so a request that went through as anyone else
would be refused. Prints one line per check, and "OUTCOME:" lines with the broker's answers to compare with
Apache's; exits non-zero on the first failure. The listeners and credentials come from the environment, as
parity/security/setup.sh's scenario.env names them:

    python3 confluent_kafka_secured.py UNIQUE-SUFFIX password SCRAM-SHA-256|SCRAM-SHA-512|PLAIN...
        SASL_SSL_<MECHANISM>_BOOTSTRAP, SSL_CA_PEM, SASL_USERNAME, SASL_PASSWORD
    python3 confluent_kafka_secured.py UNIQUE-SUFFIX oauthbearer
        SASL_SSL_OAUTHBEARER_BOOTSTRAP, SSL_CA_PEM, OAUTH_TOKEN (a JWT for the granted principal),
        OAUTH_EXPIRED_TOKEN, OAUTH_OTHER_TOKEN (a valid JWT for a principal without ACLs)
    python3 confluent_kafka_secured.py UNIQUE-SUFFIX mtls
        SSL_MTLS_BOOTSTRAP, SSL_CA_PEM, SSL_CLIENT_CERT, SSL_CLIENT_KEY
"""
import os
import re
import sys
import time

from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic
from parity_checks import check, outcome

SUFFIX, MODE, ARGS = sys.argv[1], sys.argv[2], sys.argv[3:]
TIMEOUT_S = 30
PREFIX = f"parity-secured-{SUFFIX}"


def sasl_ssl(mechanism):
    return {"bootstrap.servers": os.environ[f"SASL_SSL_{mechanism.replace('-', '_')}_BOOTSTRAP"],
            "security.protocol": "SASL_SSL", "ssl.ca.location": os.environ["SSL_CA_PEM"], "sasl.mechanism": mechanism}


def password_login(mechanism, password):
    return {**sasl_ssl(mechanism), "sasl.username": os.environ["SASL_USERNAME"], "sasl.password": password}


def oauthbearer(token):
    # librdkafka asks for a token before it connects and again at 80 % of its lifetime
    return {**sasl_ssl("OAUTHBEARER"), "oauth_cb": lambda _config: (token, time.time() + 3600)}


def connect(kind, config):
    """A client of this kind; with OAUTHBEARER polled once, as confluent-kafka-python 1.7 runs oauth_cb only from
    poll() (confluent-kafka-python#1296): without it the client never asks for a token and never connects."""
    client = kind(config)
    if "oauth_cb" in config:
        client.poll(0)
    return client


def mtls(certificate):
    config = {"bootstrap.servers": os.environ["SSL_MTLS_BOOTSTRAP"], "security.protocol": "SSL",
              "ssl.ca.location": os.environ["SSL_CA_PEM"]}
    if certificate:
        config.update({"ssl.certificate.location": os.environ["SSL_CLIENT_CERT"],
                       "ssl.key.location": os.environ["SSL_CLIENT_KEY"]})
    return config


def round_trip(security, what):
    """Admin, producer and a committing consumer group through one listener, with values read back intact."""
    admin = connect(AdminClient, security)
    topic = f"{PREFIX}-{what}"
    admin.create_topics([NewTopic(topic, num_partitions=3, replication_factor=1)])[topic].result(TIMEOUT_S)
    described = admin.list_topics(topic, timeout=TIMEOUT_S).topics[topic]
    check(described.error is None and len(described.partitions) == 3, f"{what}: AdminClient created {topic}")

    delivered, failed = [], []
    producer = connect(Producer, {**security, "acks": "all"})
    values = [f"{what}-value-{i}" for i in range(100)]
    for i, value in enumerate(values):
        producer.produce(topic, key=f"key-{i}", value=value,
                         on_delivery=lambda err, msg: (failed if err else delivered).append(err or msg.offset()))
    check(producer.flush(TIMEOUT_S) == 0 and not failed and len(delivered) == 100,
          f"{what}: 100 records acknowledged ({failed[:3]})")

    group = f"{PREFIX}-{what}-group"
    consumer = connect(Consumer, {**security, "group.id": group, "auto.offset.reset": "earliest", "enable.auto.commit": False})
    consumer.subscribe([topic])
    records, deadline = [], time.time() + TIMEOUT_S
    while len(records) < 100 and time.time() < deadline:
        msg = consumer.poll(0.5)
        if msg is not None and msg.error() is None:
            records.append(msg)
        elif msg is not None and msg.error().code() != KafkaError._PARTITION_EOF:
            check(False, f"{what}: poll without error ({msg.error()})")
    check(sorted(m.value().decode() for m in records) == sorted(values)
          and all(m.key().decode().replace("key", f"{what}-value") == m.value().decode() for m in records),
          f"{what}: the group read the 100 records back, keys and values intact ({len(records)} read)")
    consumer.commit(asynchronous=False)
    committed = consumer.committed([TopicPartition(topic, p) for p in range(3)], timeout=TIMEOUT_S)
    check(sum(max(tp.offset, 0) for tp in committed) == 100, f"{what}: committed offsets add up to 100")
    consumer.close()
    groups = [g.id for g in admin.list_groups(timeout=TIMEOUT_S)]
    check(group in groups, f"{what}: ListGroups names the group")

    outside = f"parity-unsecured-{SUFFIX}-{what}"
    refused = admin.create_topics([NewTopic(outside, num_partitions=1, replication_factor=1)])[outside].exception(TIMEOUT_S)
    check(refused is not None, f"{what}: creating a topic outside the principal's ACLs is refused ({refused})")
    outcome(f"{what}: create a topic outside the ACLs", refused.args[0].name())


def refused(security, what):
    """A client the broker does not authenticate hears so promptly: an authentication error, not a hang."""
    errors, started = [], time.time()

    def authentication_errors():
        return [e for e in errors if e.code() == KafkaError._AUTHENTICATION]

    producer = connect(Producer, {**security, "error_cb": errors.append, "reconnect.backoff.ms": 1000})
    while not authentication_errors() and time.time() - started < TIMEOUT_S:
        producer.poll(0.2)
    check(authentication_errors(),
          f"{what}: the client reports an authentication error in {time.time() - started:.1f} s ({errors[:2]})")
    # librdkafka's message: "<broker>: SASL authentication error: <the broker's error message> (after <n>ms in state ...)"
    first = authentication_errors()[0].str()
    said = re.search(r"SASL authentication error: (.*) \(after ", first)
    outcome(f"{what}: the broker's error message", said.group(1) if said else first)
    not_served(security, what)


def not_served(security, what):
    try:
        connect(AdminClient, security).list_topics(timeout=5)
        check(False, f"{what}: metadata is not served")
    except KafkaException as e:
        check(True, f"{what}: metadata is not served ({e.args[0].name()})")


if MODE == "password":
    for mechanism in ARGS:
        round_trip(password_login(mechanism, os.environ["SASL_PASSWORD"]), mechanism.lower())
        refused(password_login(mechanism, os.environ["SASL_PASSWORD"] + "-wrong"), f"{mechanism} with a wrong password")
elif MODE == "oauthbearer":
    round_trip(oauthbearer(os.environ["OAUTH_TOKEN"]), "oauthbearer")
    refused(oauthbearer(os.environ["OAUTH_EXPIRED_TOKEN"]), "OAUTHBEARER with an expired token")
    other = connect(AdminClient, oauthbearer(os.environ["OAUTH_OTHER_TOKEN"]))
    topic = f"{PREFIX}-other"
    denied = other.create_topics([NewTopic(topic, num_partitions=1, replication_factor=1)])[topic].exception(TIMEOUT_S)
    check(denied is not None, f"another token's principal, without ACLs, may not create {topic} ({denied})")
    outcome("another token's principal creates a topic", denied.args[0].name())
elif MODE == "mtls":
    round_trip(mtls(certificate=True), "mtls")
    not_served(mtls(certificate=False), "mTLS without a client certificate")
else:
    check(False, f"unknown mode {MODE}")
print("ALL CHECKS PASSED", flush=True)
