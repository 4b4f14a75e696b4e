"""librdkafka's transactional fencing through confluent-kafka-python: a producer whose transactional
id a newer producer took over must see a fatal fenced error on its next Produce (librdkafka treats
only INVALID_PRODUCER_EPOCH there as fencing; Apache 3.7 answers that), and none of its records may be
visible to a read_committed consumer. Prints one line per check; exits non-zero on the first failure.

    python3 confluent_kafka_fencing.py HOST:PORT UNIQUE-SUFFIX
"""
import sys
import time

from confluent_kafka import Consumer, KafkaError, KafkaException, Producer
from confluent_kafka.admin import AdminClient, NewTopic

BOOTSTRAP, SUFFIX = sys.argv[1], sys.argv[2]
TIMEOUT_S = 30


def check(condition, what):
    if not condition:
        print("FAILED: " + what, flush=True)
        sys.exit(1)
    print("ok: " + what, flush=True)


def transactional_producer(txn_id, errors):
    producer = Producer({"bootstrap.servers": BOOTSTRAP, "transactional.id": txn_id,
                         "error_cb": errors.append, "linger.ms": 0})
    producer.init_transactions(TIMEOUT_S)
    return producer


def main():
    topic = f"parity-fencing-{SUFFIX}"
    admin = AdminClient({"bootstrap.servers": BOOTSTRAP})
    admin.create_topics([NewTopic(topic, num_partitions=1, replication_factor=1)])[topic].result(TIMEOUT_S)
    txn_id = f"fencing-{SUFFIX}"

    old_errors, reports = [], []
    old = transactional_producer(txn_id, old_errors)
    old.begin_transaction()
    old.produce(topic, value=b"before-fencing", on_delivery=lambda err, msg: reports.append(err))
    check(old.flush(TIMEOUT_S) == 0 and reports == [None], "the first producer's record was delivered")

    new_errors = []
    new = transactional_producer(txn_id, new_errors)
    check(not new_errors, "a second producer with the same transactional id initialised (fencing the first)")

    reports.clear()
    old.produce(topic, value=b"after-fencing", on_delivery=lambda err, msg: reports.append(err))
    deadline = time.time() + TIMEOUT_S
    while not any(e.fatal() for e in old_errors) and time.time() < deadline:
        try:
            old.flush(0.2)
        except KafkaException as raised:  # librdkafka 2.x raises the fatal error from flush()
            old_errors.append(raised.args[0])
    fatal = [e for e in old_errors if e.fatal()]
    check(fatal and fatal[0].code() == KafkaError._FENCED,
          f"the fenced producer got a fatal _FENCED error (errors: {[str(e) for e in old_errors]})")
    check(None not in reports, "its record after the fencing was not delivered")

    new.begin_transaction()
    new.produce(topic, value=b"from-the-new-producer")
    new.commit_transaction(TIMEOUT_S)
    consumer = Consumer({"bootstrap.servers": BOOTSTRAP, "group.id": f"fencing-reader-{SUFFIX}",
                         "auto.offset.reset": "earliest", "isolation.level": "read_committed"})
    consumer.subscribe([topic])
    values, deadline = [], time.time() + TIMEOUT_S
    while b"from-the-new-producer" not in values and time.time() < deadline:
        msg = consumer.poll(0.5)
        if msg is not None and msg.error() is None:
            values.append(msg.value())
    consumer.close()
    check(values == [b"from-the-new-producer"], f"read_committed sees only the new producer's record ({values})")
    print("ALL CHECKS PASSED", flush=True)


if __name__ == "__main__":
    main()
