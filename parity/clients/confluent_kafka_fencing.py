"""librdkafka's transactional fencing through confluent-kafka-python: a producer whose transactional
id a newer producer took over must see a fatal fenced error on its next Produce (librdkafka treats
only INVALID_PRODUCER_EPOCH there as fencing; Apache 3.7 answers that), none of its records may be
visible to a read_committed consumer, and the newer producer's committed records are read exactly once.
With "restart" the broker restarts (the scenario's $RESTART_BROKER) while the first producer's
transaction is open: the broker must remember that transaction and the producer's epoch across it.
Prints one line per check; exits non-zero on the first failure.

    python3 confluent_kafka_fencing.py HOST:PORT UNIQUE-SUFFIX [restart]
"""
import sys
import time

from confluent_kafka import Consumer, KafkaError, KafkaException, Producer
from confluent_kafka.admin import AdminClient, NewTopic

from broker_restart import restart_broker
from parity_checks import check

BOOTSTRAP, SUFFIX = sys.argv[1], sys.argv[2]
RESTART = sys.argv[3:] == ["restart"]
TIMEOUT_S = 30
COMMITTED = [f"from-the-new-producer-{i}".encode() for i in range(10)]


def transactional_producer(txn_id, errors):
    producer = Producer({"bootstrap.servers": BOOTSTRAP, "transactional.id": txn_id,
                         "error_cb": errors.append, "linger.ms": 0})
    # after a restart the broker may still be loading its transaction state: librdkafka retries meanwhile
    producer.init_transactions(2 * TIMEOUT_S)
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
    if RESTART:
        restart_broker("graceful")
        check(True, "the broker restarted while the first producer's transaction was open")

    new_errors = []
    new = transactional_producer(txn_id, new_errors)
    check(not any(e.fatal() for e in new_errors),
          "a second producer with the same transactional id initialised (fencing the first)")

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
    for value in COMMITTED:
        new.produce(topic, value=value)
    new.commit_transaction(TIMEOUT_S)
    consumer = Consumer({"bootstrap.servers": BOOTSTRAP, "group.id": f"fencing-reader-{SUFFIX}",
                         "auto.offset.reset": "earliest", "isolation.level": "read_committed",
                         "enable.partition.eof": True})
    consumer.subscribe([topic])
    values, deadline = [], time.time() + TIMEOUT_S
    while time.time() < deadline:  # up to the end of the partition as read_committed sees it
        msg = consumer.poll(0.5)
        if msg is None:
            continue
        if msg.error() is None:
            values.append(msg.value())
        elif msg.error().code() == KafkaError._PARTITION_EOF and len(values) >= len(COMMITTED):
            break
    consumer.close()
    check(values == COMMITTED, f"read_committed sees the new producer's {len(COMMITTED)} records once each, "
                               f"in order, and nothing of the fenced one ({values})")
    print("ALL CHECKS PASSED", flush=True)


if __name__ == "__main__":
    main()
