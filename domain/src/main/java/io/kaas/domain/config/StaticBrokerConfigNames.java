package io.kaas.domain.config;

import java.util.Set;

/**
 * The broker configs Apache Kafka 3.7 knows but cannot change while a broker runs (its
 * {@code KafkaConfig} names less the dynamic ones): setting one dynamically is refused with
 * "Cannot update these configs dynamically". A name in neither set is unknown to Apache's broker,
 * which stores it without a check; kaas does the same.
 */
public final class StaticBrokerConfigNames {
    private static final Set<String> NAMES = Set.of(
             "alter.config.policy.class.name", "alter.log.dirs.replication.quota.window.num",
             "alter.log.dirs.replication.quota.window.size.seconds", "authorizer.class.name",
             "auto.create.topics.enable", "auto.include.jmx.reporter", "auto.leader.rebalance.enable",
             "broker.heartbeat.interval.ms", "broker.id", "broker.id.generation.enable", "broker.rack",
             "broker.session.timeout.ms", "client.quota.callback.class", "connection.failed.authentication.delay.ms",
             "connections.max.idle.ms", "connections.max.reauth.ms", "control.plane.listener.name",
             "controlled.shutdown.enable", "controlled.shutdown.max.retries", "controlled.shutdown.retry.backoff.ms",
             "controller.listener.names", "controller.quorum.append.linger.ms",
             "controller.quorum.election.backoff.max.ms", "controller.quorum.election.timeout.ms",
             "controller.quorum.fetch.timeout.ms", "controller.quorum.request.timeout.ms",
             "controller.quorum.retry.backoff.ms", "controller.quorum.voters", "controller.quota.window.num",
             "controller.quota.window.size.seconds", "controller.socket.timeout.ms", "create.topic.policy.class.name",
             "default.replication.factor", "delegation.token.expiry.check.interval.ms",
             "delegation.token.expiry.time.ms", "delegation.token.master.key", "delegation.token.max.lifetime.ms",
             "delegation.token.secret.key", "delete.records.purgatory.purge.interval.requests", "delete.topic.enable",
             "early.start.listeners", "eligible.leader.replicas.enable", "fetch.max.bytes",
             "fetch.purgatory.purge.interval.requests", "group.consumer.assignors",
             "group.consumer.heartbeat.interval.ms", "group.consumer.max.heartbeat.interval.ms",
             "group.consumer.max.session.timeout.ms", "group.consumer.max.size",
             "group.consumer.min.heartbeat.interval.ms", "group.consumer.min.session.timeout.ms",
             "group.consumer.session.timeout.ms", "group.coordinator.new.enable",
             "group.coordinator.rebalance.protocols", "group.coordinator.threads", "group.initial.rebalance.delay.ms",
             "group.max.session.timeout.ms", "group.max.size", "group.min.session.timeout.ms",
             "initial.broker.registration.timeout.ms", "inter.broker.listener.name", "inter.broker.protocol.version",
             "kafka.metrics.polling.interval.secs", "kafka.metrics.reporters",
             "leader.imbalance.check.interval.seconds", "leader.imbalance.per.broker.percentage", "log.cleaner.enable",
             "log.dir", "log.dirs", "log.flush.offset.checkpoint.interval.ms", "log.flush.scheduler.interval.ms",
             "log.flush.start.offset.checkpoint.interval.ms", "log.message.format.version",
             "log.retention.check.interval.ms", "log.retention.hours", "log.retention.minutes", "log.roll.hours",
             "log.roll.jitter.hours", "max.incremental.fetch.session.cache.slots", "metadata.log.dir",
             "metadata.log.max.record.bytes.between.snapshots", "metadata.log.max.snapshot.interval.ms",
             "metadata.log.segment.bytes", "metadata.log.segment.min.bytes", "metadata.log.segment.ms",
             "metadata.max.idle.interval.ms", "metadata.max.retention.bytes", "metadata.max.retention.ms",
             "metrics.num.samples", "metrics.recording.level", "metrics.sample.window.ms", "node.id", "num.partitions",
             "num.replica.alter.log.dirs.threads", "offset.metadata.max.bytes", "offsets.commit.required.acks",
             "offsets.commit.timeout.ms", "offsets.load.buffer.size", "offsets.retention.check.interval.ms",
             "offsets.retention.minutes", "offsets.topic.compression.codec", "offsets.topic.num.partitions",
             "offsets.topic.replication.factor", "offsets.topic.segment.bytes", "password.encoder.cipher.algorithm",
             "password.encoder.iterations", "password.encoder.key.length", "password.encoder.keyfactory.algorithm",
             "password.encoder.old.secret", "password.encoder.secret", "process.roles",
             "producer.id.expiration.check.interval.ms", "producer.purgatory.purge.interval.requests",
             "queued.max.request.bytes", "queued.max.requests", "quota.window.num", "quota.window.size.seconds",
             "remote.log.manager.task.interval.ms", "remote.log.manager.task.retry.backoff.max.ms",
             "remote.log.manager.task.retry.backoff.ms", "remote.log.manager.task.retry.jitter",
             "remote.log.manager.thread.pool.size", "remote.log.metadata.custom.metadata.max.bytes",
             "remote.log.metadata.manager.class.name", "remote.log.metadata.manager.class.path",
             "remote.log.metadata.manager.impl.prefix", "remote.log.metadata.manager.listener.name",
             "remote.log.reader.max.pending.tasks", "remote.log.reader.threads",
             "remote.log.storage.manager.class.name", "remote.log.storage.manager.class.path",
             "remote.log.storage.manager.impl.prefix", "remote.log.storage.system.enable", "replica.fetch.backoff.ms",
             "replica.fetch.max.bytes", "replica.fetch.min.bytes", "replica.fetch.response.max.bytes",
             "replica.fetch.wait.max.ms", "replica.high.watermark.checkpoint.interval.ms", "replica.lag.time.max.ms",
             "replica.selector.class", "replica.socket.receive.buffer.bytes", "replica.socket.timeout.ms",
             "replication.quota.window.num", "replication.quota.window.size.seconds", "request.timeout.ms",
             "reserved.broker.max.id", "sasl.client.callback.handler.class", "sasl.login.callback.handler.class",
             "sasl.login.class", "sasl.login.connect.timeout.ms", "sasl.login.read.timeout.ms",
             "sasl.login.retry.backoff.max.ms", "sasl.login.retry.backoff.ms", "sasl.mechanism.controller.protocol",
             "sasl.oauthbearer.clock.skew.seconds", "sasl.oauthbearer.expected.audience",
             "sasl.oauthbearer.expected.issuer", "sasl.oauthbearer.jwks.endpoint.refresh.ms",
             "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms", "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms",
             "sasl.oauthbearer.jwks.endpoint.url", "sasl.oauthbearer.scope.claim.name",
             "sasl.oauthbearer.sub.claim.name", "sasl.oauthbearer.token.endpoint.url",
             "sasl.server.callback.handler.class", "sasl.server.max.receive.size", "security.inter.broker.protocol",
             "security.providers", "server.max.startup.time.ms", "socket.connection.setup.timeout.max.ms",
             "socket.connection.setup.timeout.ms", "socket.listen.backlog.size", "socket.receive.buffer.bytes",
             "socket.request.max.bytes", "socket.send.buffer.bytes", "ssl.allow.dn.changes", "ssl.allow.san.changes",
             "ssl.principal.mapping.rules", "telemetry.max.bytes",
             "transaction.abort.timed.out.transaction.cleanup.interval.ms", "transaction.max.timeout.ms",
             "transaction.remove.expired.transaction.cleanup.interval.ms", "transaction.state.log.load.buffer.size",
             "transaction.state.log.min.isr", "transaction.state.log.num.partitions",
             "transaction.state.log.replication.factor", "transaction.state.log.segment.bytes",
             "transactional.id.expiration.ms", "unstable.api.versions.enable", "unstable.metadata.versions.enable",
             "zookeeper.clientCnxnSocket", "zookeeper.connect", "zookeeper.connection.timeout.ms",
             "zookeeper.max.in.flight.requests", "zookeeper.metadata.migration.enable",
             "zookeeper.metadata.migration.min.batch.size", "zookeeper.session.timeout.ms", "zookeeper.set.acl",
             "zookeeper.ssl.cipher.suites", "zookeeper.ssl.client.enable", "zookeeper.ssl.crl.enable",
             "zookeeper.ssl.enabled.protocols", "zookeeper.ssl.endpoint.identification.algorithm",
             "zookeeper.ssl.keystore.location", "zookeeper.ssl.keystore.password", "zookeeper.ssl.keystore.type",
             "zookeeper.ssl.ocsp.enable", "zookeeper.ssl.protocol", "zookeeper.ssl.truststore.location",
             "zookeeper.ssl.truststore.password", "zookeeper.ssl.truststore.type"
    );

    private StaticBrokerConfigNames() {
    }

    public static boolean contains(String name) {
        return NAMES.contains(name);
    }
}
