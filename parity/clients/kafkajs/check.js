// KafkaJS against one broker: admin, an idempotent producer, a two-member consumer group that
// commits and is resumed from its offsets, and transactions seen by a read_committed consumer.
// Prints one line per check; exits non-zero on the first failure.
//     node check.js HOST:PORT UNIQUE-SUFFIX
const { Kafka, logLevel } = require('kafkajs');
const { check, until } = require('./checks');

const [bootstrap, suffix] = process.argv.slice(2);
const kafka = new Kafka({ clientId: `parity-kafkajs-${suffix}`, brokers: [bootstrap], logLevel: logLevel.ERROR });

async function groupMember(groupId, topic, received) {
  const consumer = kafka.consumer({ groupId, sessionTimeout: 10000, heartbeatInterval: 500 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const member = { consumer, partitions: [] };
  consumer.on(consumer.events.GROUP_JOIN, (e) => {
    member.partitions = e.payload.memberAssignment[topic] || [];
  });
  await consumer.run({ eachMessage: async ({ message }) => received.push(message) });
  return member;
}

async function producerAndGroup(admin) {
  const topic = `parity-kafkajs-${suffix}`;
  check(await admin.createTopics({ topics: [{ topic, numPartitions: 4 }], waitForLeaders: true }), `created ${topic}`);
  const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
  check(metadata.topics[0].partitions.length === 4, 'metadata shows 4 partitions');

  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const messages = Array.from({ length: 500 }, (_, i) => ({
    key: `key-${i}`, value: `value-${i}`, headers: { origin: 'kafkajs' },
  }));
  const acks = await producer.send({ topic, acks: -1, messages });
  check(acks.every((a) => a.errorCode === 0), `500 records acknowledged in ${acks.length} partition batches`);
  await producer.disconnect();

  const groupId = `parity-kafkajs-group-${suffix}`;
  const received = [];
  const members = [await groupMember(groupId, topic, received), await groupMember(groupId, topic, received)];
  await until(() => received.length >= 500 && members.every((m) => m.partitions.length === 2),
    `two members share four partitions and read 500 records (${received.length} read)`);
  const values = received.map((m) => m.value.toString()).sort();
  check(JSON.stringify(values) === JSON.stringify(messages.map((m) => m.value).sort()), 'every record once, values intact');
  check(received.every((m) => m.key.toString().replace('key', 'value') === m.value.toString()
    && m.headers.origin.toString() === 'kafkajs'), 'keys and headers intact');
  await Promise.all(members.map((m) => m.consumer.disconnect()));

  const offsets = await admin.fetchOffsets({ groupId, topics: [topic] });
  const committed = offsets[0].partitions.reduce((sum, p) => sum + Number(p.offset), 0);
  check(committed === 500, `committed offsets add up to 500 (${committed})`);
  const groups = await admin.describeGroups([groupId]);
  check(groups.groups[0].state === 'Empty', `the group is Empty after its members left (${groups.groups[0].state})`);
}

async function transactions(admin) {
  const topic = `parity-kafkajs-txn-${suffix}`;
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
  const producer = kafka.producer({ transactionalId: `parity-kafkajs-${suffix}`, idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  for (const outcome of ['committed', 'aborted']) {
    const txn = await producer.transaction();
    await txn.send({ topic, messages: Array.from({ length: 10 }, (_, i) => ({ value: `${outcome}-${i}` })) });
    await (outcome === 'committed' ? txn.commit() : txn.abort());
  }
  await producer.disconnect();
  check(true, 'a transaction committed and one aborted');

  const seen = [];
  const consumer = kafka.consumer({ groupId: `parity-kafkajs-txn-${suffix}`, readUncommitted: false });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({ eachMessage: async ({ message }) => seen.push(message.value.toString()) });
  await until(() => seen.length >= 10, `read_committed reads the committed transaction (${seen.length} read)`);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await consumer.disconnect();
  check(JSON.stringify(seen) === JSON.stringify(Array.from({ length: 10 }, (_, i) => `committed-${i}`)),
    `read_committed sees the committed records only (${seen.length})`);
}

(async () => {
  const admin = kafka.admin();
  await admin.connect();
  const cluster = await admin.describeCluster();
  check(cluster.brokers.length >= 1 && cluster.controller !== null, `describeCluster lists ${cluster.brokers.length} broker(s)`);
  await producerAndGroup(admin);
  await transactions(admin);
  await admin.disconnect();
  console.log('ALL CHECKS PASSED');
  process.exit(0);
})().catch((e) => {
  console.log(`FAILED: ${e.stack || e}`);
  process.exit(1);
});
