// Cross-client conformance checks through KafkaJS, one per parity scenario, as
// confluent_kafka_conformance.py does them through librdkafka: each derives what it expects from what
// it did, and prints "OUTCOME:" lines for the answers a broker chooses, which the scenario compares
// with the ones Apache Kafka 3.7.2 gave. Exits non-zero on the first failure.
//     node conformance.js HOST:PORT UNIQUE-SUFFIX CHECK [ARGS]
//     CHECK: rebalance | timestamps | records | large-messages | admin
//            | idempotence-restart graceful|kill | fencing-restart (restart the broker through $RESTART_BROKER)
const { spawn } = require('child_process');
const { Kafka, logLevel, CompressionTypes, ConfigResourceTypes } = require('kafkajs');
const { TIMEOUT_MS, check, outcome, until } = require('./checks');

const [bootstrap, suffix, checkName, ...args] = process.argv.slice(2);
const kafka = new Kafka({ clientId: `conformance-${suffix}`, brokers: [bootstrap], logLevel: logLevel.NOTHING });
const admin = kafka.admin();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function createTopic(topic, numPartitions, configEntries = []) {
  await admin.createTopics({ topics: [{ topic, numPartitions, configEntries }], waitForLeaders: true });
  return topic;
}

/** The error type of a failed admin call ("OK" when it succeeded), through KafkaJS's wrappers. */
async function answer(call) {
  try {
    const result = await call();
    return result === false ? 'EXISTS (false)' : 'OK';
  } catch (e) {
    let inner = (e.errors && e.errors[0]) || e;
    while (!inner.type && (inner.cause || inner.originalError)) inner = inner.cause || inner.originalError;
    const partition = inner.partitions && inner.partitions.find((p) => p.error);
    return (partition && partition.error.type) || inner.type || inner.name;
  }
}

async function readAll(topic, expected, options = {}) {
  const seen = [];
  const consumer = kafka.consumer({ groupId: `conformance-reader-${topic}`, maxWaitTimeInMs: 200, ...options });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({ eachMessage: async ({ partition, message }) => seen.push({ partition, ...message }) });
  const deadline = Date.now() + TIMEOUT_MS;
  while (seen.length < expected && Date.now() < deadline) await sleep(50);
  await consumer.disconnect();
  return seen;
}

// ---- consumer groups ----------------------------------------------------------------------------------

/**
 * Five members join and leave at chosen moments while records are produced, committing each record
 * after processing it. Every record must be read exactly once, a member may only read partitions it
 * was assigned, a partition changes reader only after the previous reader started rejoining, and the
 * committed offsets must reach every partition's end.
 */
async function rebalance() {
  const partitions = 6;
  const topic = await createTopic(`conformance-rebalance-${suffix}`, partitions);
  const groupId = `conformance-rebalance-${suffix}`;
  const consumed = new Map();
  const violations = [];
  const lastReader = new Map(); // partition -> { member, rejoins }
  const members = new Map();

  async function join(name) {
    const consumer = kafka.consumer({ groupId, sessionTimeout: 6000, heartbeatInterval: 500, maxWaitTimeInMs: 200 });
    const member = { name, consumer, assigned: [], rejoins: 0, live: true };
    members.set(name, member);
    consumer.on(consumer.events.GROUP_JOIN, (e) => {
      member.assigned = e.payload.memberAssignment[topic] || [];
      member.rejoins += 1;
    });
    consumer.on(consumer.events.REBALANCING, () => { member.rejoins += 1; });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommitThreshold: 1,
      eachMessage: async ({ partition, message }) => {
        const key = `${partition}:${message.offset}`;
        if (!member.assigned.includes(partition)) violations.push(`${name} read partition ${partition} it was not assigned`);
        if (consumed.has(key)) violations.push(`offset ${message.offset} of partition ${partition} read twice`);
        const previous = lastReader.get(partition);
        if (previous && previous.member !== member && previous.member.live && previous.member.rejoins === previous.rejoins) {
          violations.push(`${name} read partition ${partition} while ${previous.member.name} still owned it`);
        }
        lastReader.set(partition, { member, rejoins: member.rejoins });
        consumed.set(key, message.value.toString());
      },
    });
  }

  async function leave(name) {
    const member = members.get(name);
    members.delete(name);
    await member.consumer.disconnect(); // commits what it read, then leaves the group
    member.live = false;
  }

  const producer = kafka.producer();
  await producer.connect();
  const produced = new Map();
  let sent = 0;
  // [milliseconds until the next step, action, members]: b leaves while d and e are still joining.
  const plan = [[2000, 'join', 'a'], [2000, 'join', 'b', 'c'], [2000, 'leave', 'a'], [200, 'join', 'd', 'e'],
    [2000, 'leave', 'b'], [2000, 'leave', 'c']];
  for (const [ms, action, ...names] of plan) {
    await Promise.all(names.map((name) => (action === 'join' ? join(name) : leave(name))));
    const phaseEnd = Date.now() + ms;
    while (Date.now() < phaseEnd) {
      const messages = Array.from({ length: 6 }, (_, i) => ({ partition: (sent + i) % partitions, value: `record-${sent + i}` }));
      sent += messages.length;
      const acks = await producer.send({ topic, acks: -1, messages });
      for (const a of acks) {
        const count = messages.filter((m) => m.partition === a.partition).length;
        for (let i = 0; i < count; i += 1) produced.set(`${a.partition}:${Number(a.baseOffset) + i}`, true);
      }
      await sleep(100);
    }
    console.log(`    ${action} ${names.join(',')}: ${consumed.size} of ${sent} read`);
  }
  await producer.disconnect();
  await until(() => consumed.size >= sent || violations.length > 0, `every record read (${consumed.size} of ${sent})`);
  await sleep(500);
  check(violations.length === 0, `ownership and reads consistent (${violations.slice(0, 3)})`);
  check(consumed.size === produced.size && [...produced.keys()].every((k) => consumed.has(k)),
    `every record read exactly once across the members (${consumed.size} read, ${produced.size} produced)`);
  const remaining = [...members.values()];
  check(remaining.flatMap((m) => m.assigned).sort().join() === '0,1,2,3,4,5',
    `the last two members own every partition once (${remaining.map((m) => `${m.name}: ${m.assigned}`).join('; ')})`);
  await Promise.all(remaining.map((m) => leave(m.name)));

  const offsets = (await admin.fetchOffsets({ groupId, topics: [topic] }))[0].partitions;
  const ends = await admin.fetchTopicOffsets(topic);
  const lag = ends.map((e) => Number(e.high) - Number(offsets.find((o) => o.partition === e.partition).offset));
  check(lag.every((l) => l === 0), `committed offsets reach every partition's end: lag ${lag}`);
  const state = (await admin.describeGroups([groupId])).groups[0].state;
  check(state === 'Empty', `the group is Empty after the last member left (${state})`);
}

// ---- records ------------------------------------------------------------------------------------------

/**
 * ListOffsets by timestamp on one batch of 2000 records whose timestamps are out of order: the answer
 * must be the first offset whose timestamp is at or after the one asked for.
 */
async function timestamps() {
  const topic = await createTopic(`conformance-timestamps-${suffix}`, 1);
  const producer = kafka.producer();
  await producer.connect();
  const base = Date.now() - 3600000;
  const stamps = Array.from({ length: 2000 }, (_, i) => base + (i ^ 5) * 10);
  stamps[1234] = base + 30000;
  const [ack] = await producer.send({ topic, acks: -1, messages: stamps.map((t, i) => ({ value: `t-${i}`, timestamp: `${t}` })) });
  await producer.disconnect();
  check(ack.errorCode === 0 && Number(ack.baseOffset) === 0, 'one batch of 2000 records acknowledged at offset 0');
  const read = await readAll(topic, 2000);
  check(read.every((m) => Number(m.timestamp) === stamps[Number(m.offset)]), `the broker kept every CreateTime (${read.length} read)`);

  const targets = [base - 5, base, base + 19990, base + 30000, base + 30001];
  for (let t = base + 3; t < base + 20100; t += 397) targets.push(t);
  const wrong = [];
  for (const t of targets) {
    const [found] = await admin.fetchTopicOffsetsByTimestamp(topic, t);
    const first = stamps.findIndex((s) => s >= t);
    const expected = first < 0 ? 2000 : first; // KafkaJS answers the end offset where the broker finds none
    if (Number(found.offset) !== expected) wrong.push(`${t - base}: ${found.offset} (expected ${expected})`);
  }
  check(wrong.length === 0, `fetchTopicOffsetsByTimestamp for ${targets.length} timestamps matches the records (${wrong.slice(0, 5)})`);
  const [latest] = await admin.fetchTopicOffsetsByTimestamp(topic, -3);
  check(Number(latest.offset) === 1999,
    `timestamp -3 answers the last offset 1999 of the batch holding the largest timestamp, as Apache 3.7 does (${latest.offset})`);
}

/**
 * Headers with duplicate keys, empty values and binary bytes, plain and gzip, byte for byte (KafkaJS
 * cannot send a null header value, nor compress with snappy, lz4 or zstd without codec plugins).
 */
async function records() {
  const topic = await createTopic(`conformance-records-${suffix}`, 1);
  const headers = {
    dup: ['first', 'second'], empty: '', '': 'empty-key', bin: Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
    utf8: 'ünïcødé ✓',
  };
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const sent = [];
  for (const compression of [CompressionTypes.None, CompressionTypes.GZIP]) {
    const messages = Array.from({ length: 200 }, (_, i) => ({ key: `k-${i}`, value: `${compression}-${i}-`.repeat(20), headers }));
    const acks = await producer.send({ topic, acks: -1, compression, messages });
    check(acks.every((a) => a.errorCode === 0), `compression ${compression}: 200 records acknowledged`);
    sent.push(...messages);
  }
  await producer.disconnect();
  const read = await readAll(topic, sent.length);
  check(read.length === sent.length, `read back ${read.length} of ${sent.length}`);
  const bytes = (v) => (v === null || v === undefined ? 'null' : Buffer.from(v).toString('hex'));
  const asSent = (h) => Object.keys(h).sort().map((k) => `${k}=${[].concat(h[k]).map(bytes)}`).join(';');
  const mismatch = read.filter((m, i) => m.key.toString() !== sent[i].key || m.value.toString() !== sent[i].value
    || asSent(m.headers) !== asSent(headers));
  check(mismatch.length === 0, `values, keys and headers (duplicates, empty, binary) intact (${mismatch.slice(0, 2).map((m) => asSent(m.headers))})`);
}

/** A batch of exactly the limit is accepted, one byte more is refused with MESSAGE_TOO_LARGE. */
async function largeMessages() {
  const overhead = 61 + 11; // v2 batch header; one record of a null key, no headers, a value of 3-byte length
  const defaults = await createTopic(`conformance-large-${suffix}`, 1);
  const small = await createTopic(`conformance-large-topic-${suffix}`, 1, [{ name: 'max.message.bytes', value: '200000' }]);
  const producer = kafka.producer({ retry: { retries: 0 } });
  await producer.connect();
  for (const [topic, limit] of [[defaults, 1048588], [small, 200000]]) {
    const size = limit - overhead;
    const at = await answer(() => producer.send({ topic, acks: -1, messages: [{ value: Buffer.alloc(size, 'x') }] }));
    check(at === 'OK', `${topic}: a ${limit}-byte batch (value ${size}) is accepted (${at})`);
    const over = await answer(() => producer.send({ topic, acks: -1, messages: [{ value: Buffer.alloc(size + 1, 'x') }] }));
    outcome(`batch of limit+1 bytes (limit ${limit})`, over);
    check(over === 'MESSAGE_TOO_LARGE', `${topic}: a ${limit + 1}-byte batch is refused with MESSAGE_TOO_LARGE (${over})`);
    const [read] = await readAll(topic, 1, { maxBytesPerPartition: 1024, maxBytes: 1024 });
    check(read && read.value.length === size, `${topic}: the ${limit}-byte record is read back whole`);
  }
  await producer.disconnect();
}

// ---- admin --------------------------------------------------------------------------------------------

async function configs(topic) {
  const described = await admin.describeConfigs({ resources: [{ type: ConfigResourceTypes.TOPIC, name: topic }], includeSynonyms: false });
  return Object.fromEntries(described.resources[0].configEntries.map((e) => [e.configName, e]));
}

/**
 * CreateTopics, CreatePartitions, DescribeConfigs, AlterConfigs, DeleteRecords, ListOffsets and
 * DeleteTopics through KafkaJS's admin client, the successful answers checked against the log and the
 * refusals by their code.
 */
async function adminOperations() {
  const topic = `conformance-admin-${suffix}`;
  const config = [{ name: 'cleanup.policy', value: 'compact' }, { name: 'retention.ms', value: '12345' }];
  const create = (name, configEntries = config, validateOnly = false, numPartitions = 3) => answer(
    () => admin.createTopics({ topics: [{ topic: name, numPartitions, configEntries }], validateOnly, waitForLeaders: !validateOnly }));
  check(outcome('create', await create(topic)) === 'OK', `created ${topic}`);
  check(outcome('create again', await create(topic)) === 'EXISTS (false)', 'creating it again answers false (TOPIC_ALREADY_EXISTS)');
  check(outcome('create validate_only', await create(`${topic}-dry`, config, true)) === 'OK'
    && !(await admin.listTopics()).includes(`${topic}-dry`), 'validateOnly creates nothing');
  outcome('create with a bad cleanup.policy', await create(`${topic}-bad`, [{ name: 'cleanup.policy', value: 'sometimes' }]));
  outcome('create with an unknown config', await create(`${topic}-unknown`, [{ name: 'no.such.config', value: '1' }]));
  outcome('create with 0 partitions', await create(`${topic}-zero`, [], false, 0));

  let entries = await configs(topic);
  check(entries['cleanup.policy'].configValue === 'compact' && entries['retention.ms'].configValue === '12345'
    && !entries['retention.ms'].isDefault, 'DescribeConfigs shows the configs it was created with');
  const alter = (name, configEntries) => answer(() => admin.alterConfigs({ resources: [{ type: ConfigResourceTypes.TOPIC, name, configEntries }] }));
  check(outcome('alter', await alter(topic, [{ name: 'retention.ms', value: '54321' }])) === 'OK', 'AlterConfigs');
  const deadline = Date.now() + TIMEOUT_MS;
  while ((entries = await configs(topic))['retention.ms'].configValue !== '54321' && Date.now() < deadline) await sleep(100);
  check(entries['retention.ms'].configValue === '54321' && entries['cleanup.policy'].configValue === 'delete',
    'AlterConfigs replaced the whole set: retention.ms set, cleanup.policy back to its default');
  outcome('alter retention.ms=soon', await alter(topic, [{ name: 'retention.ms', value: 'soon' }]));
  outcome('alter a missing topic', await alter(`${topic}-missing`, [{ name: 'retention.ms', value: '1' }]));

  const grow = (count) => answer(() => admin.createPartitions({ topicPartitions: [{ topic, count }] }));
  check(outcome('grow to 5', await grow(5)) === 'OK', 'CreatePartitions grew it to 5');
  outcome('shrink to 4', await grow(4));

  const producer = kafka.producer();
  await producer.connect();
  await producer.send({ topic, acks: -1, messages: Array.from({ length: 100 }, (_, i) => ({ partition: i % 2, value: `d-${i}` })) });
  await producer.disconnect();
  check(outcome('delete records', await answer(() => admin.deleteTopicRecords({
    topic, partitions: [{ partition: 0, offset: '20' }, { partition: 1, offset: '-1' }],
  }))) === 'OK', 'DeleteRecords below offset 20 of partition 0 and all of partition 1');
  const offsets = Object.fromEntries((await admin.fetchTopicOffsets(topic)).map((o) => [o.partition, `${o.low}..${o.high}`]));
  check(offsets[0] === '20..50' && offsets[1] === '50..50' && offsets[2] === '0..0',
    `ListOffsets shows the new log starts (${JSON.stringify(offsets)})`);
  outcome('delete records beyond the end', await answer(() => admin.deleteTopicRecords({ topic, partitions: [{ partition: 0, offset: '51' }] })));
  const read = await readAll(topic, 30);
  check(read.length === 30 && read.every((m) => m.partition === 0) && Number(read[0].offset) === 20,
    `a consumer from the beginning starts at the new log start (${read.length} records)`);

  check(outcome('delete', await answer(() => admin.deleteTopics({ topics: [topic] }))) === 'OK', 'DeleteTopics');
  outcome('delete again', await answer(() => admin.deleteTopics({ topics: [topic] })));
}

// ---- across a broker restart ------------------------------------------------------------------------

/** Starts $RESTART_BROKER MODE (see parity/lib.sh); the promise resolves once the broker answers again. */
function restartBroker(mode) {
  const hook = spawn('sh', ['-c', `${process.env.RESTART_BROKER} ${mode}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  hook.stdout.on('data', (d) => { output += d; });
  hook.stderr.on('data', (d) => { output += d; });
  return new Promise((resolve) => hook.on('close', (code) => {
    if (code !== 0) check(false, `restarting the broker (${mode}): ${output.trim()}`);
    resolve();
  }));
}

// A client that waits out a restart (Apache takes up to 30 s on a loaded machine): with KafkaJS's default
// retries (5, from 300 ms) its reconnects give up after about 10 s with a non-retriable error.
const PATIENT = { initialRetryTime: 100, maxRetryTime: 1000, retries: 300 };
const patientProducer = (options) => new Kafka({ clientId: `conformance-${suffix}`, brokers: [bootstrap],
  logLevel: logLevel.NOTHING, retry: PATIENT }).producer({ retry: PATIENT, ...options });

/**
 * Zombie fencing across a restart: producer A opens a transaction and writes, the broker restarts
 * (graceful), producer B with the same transactional id begins a transaction. A's next send must be refused
 * with INVALID_PRODUCER_EPOCH (KafkaJS does not retry it), A's commit too, and a read_committed consumer sees
 * B's committed records exactly once and nothing of A's.
 */
async function fencingRestart() {
  const topic = await createTopic(`conformance-fencing-restart-${suffix}`, 1);
  const transactional = { transactionalId: `conformance-fencing-${suffix}`, idempotent: true, maxInFlightRequests: 1 };
  const zombie = patientProducer(transactional);
  await zombie.connect();
  const open = await zombie.transaction();
  await open.send({ topic, messages: [{ value: 'before-fencing' }] });
  check(true, "the first producer's record was written in its open transaction");
  await restartBroker('graceful');
  check(true, "the broker restarted while the first producer's transaction was open");
  const successor = patientProducer(transactional);
  await successor.connect();
  // KafkaJS sends the transactional InitProducerId with the first transaction(): the broker aborts A's
  // open transaction and bumps the epoch
  const txn = await successor.transaction();
  check(true, 'a second producer with the same transactional id began a transaction (fencing the first)');
  const refused = await answer(() => open.send({ topic, messages: [{ value: 'after-fencing' }] }));
  check(refused === 'INVALID_PRODUCER_EPOCH', `the fenced producer's send is refused INVALID_PRODUCER_EPOCH (${refused})`);
  const commit = await answer(() => open.commit());
  check(commit === 'INVALID_PRODUCER_EPOCH', `the fenced producer's commit is refused INVALID_PRODUCER_EPOCH (${commit})`);
  await zombie.disconnect();

  const committed = Array.from({ length: 10 }, (_, i) => `from-the-new-producer-${i}`);
  await txn.send({ topic, messages: committed.map((value) => ({ value })) });
  await txn.commit();
  await successor.disconnect();
  // the fenced producer's record comes first in the log: read_committed would show it before B's
  const read = (await readAll(topic, committed.length, { readUncommitted: false })).map((m) => m.value.toString());
  check(JSON.stringify(read) === JSON.stringify(committed), 'read_committed sees the new producer\'s '
    + `${committed.length} records once each, in order, and nothing of the fenced one (${read})`);
}

/**
 * An idempotent producer sends one record to each of three partitions, request after request, before,
 * while and after the broker restarts (mode: graceful or kill); KafkaJS retries the request the restart
 * cut off with the same sequence numbers, so the broker must remember them across the restart. Each
 * partition's log must be exactly the records sent to it, in order, each at its acknowledged offset.
 */
async function idempotenceRestart(mode) {
  const partitions = [0, 1, 2];
  const topic = await createTopic(`conformance-idempotence-restart-${suffix}`, partitions.length);
  const producer = patientProducer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const sent = partitions.map(() => []);
  const acked = partitions.map(() => []);
  const sendWhile = async (keepGoing) => {
    while (keepGoing()) {
      const messages = partitions.map((partition) => ({ partition, value: `${partition}-${sent[partition].length}` }));
      messages.forEach((m) => sent[m.partition].push(m.value));
      for (const ack of await producer.send({ topic, acks: -1, messages })) {
        if (ack.errorCode !== 0) check(false, `partition ${ack.partition} acknowledged a record (${ack.errorCode})`);
        acked[ack.partition].push(Number(ack.baseOffset));
      }
    }
  };
  const forMs = (ms) => { const until = Date.now() + ms; return () => Date.now() < until; };
  await sendWhile(forMs(2000));
  const before = sent[0].length;
  let restarting = true;
  const restart = restartBroker(mode).then(() => { restarting = false; });
  await sendWhile(() => restarting);
  await restart;
  const during = sent[0].length - before;
  await sendWhile(forMs(2000));
  await producer.disconnect();
  const total = sent.reduce((n, values) => n + values.length, 0);
  console.log(`sent ${sent[0].length} requests of one record per partition: ${before} before the restart (${mode}), `
    + `${during} while it ran, ${sent[0].length - before - during} after`);

  const ends = Object.fromEntries((await admin.fetchTopicOffsets(topic)).map((o) => [o.partition, Number(o.high)]));
  for (const p of partitions) {
    check(ends[p] === sent[p].length, `partition ${p} holds exactly the ${sent[p].length} records sent to it (${ends[p]})`);
  }
  const read = await readAll(topic, total);
  for (const p of partitions) {
    const log = read.filter((m) => m.partition === p).map((m) => `${m.value}@${m.offset}`);
    const expected = sent[p].map((value, i) => `${value}@${acked[p][i]}`);
    const wrong = log.map((got, i) => [got, expected[i]]).filter(([got, want]) => got !== want);
    check(log.join() === expected.join(), `partition ${p}: each record once, in the order sent, at its acknowledged offset `
      + `(${log.length} read; first differences, [read, expected]: ${JSON.stringify(wrong.slice(0, 3))})`);
  }
}

const CHECKS = {
  rebalance, timestamps, records, 'large-messages': largeMessages, admin: adminOperations,
  'idempotence-restart': idempotenceRestart, 'fencing-restart': fencingRestart,
};
(async () => {
  await admin.connect();
  await CHECKS[checkName](...args);
  await admin.disconnect();
  console.log('ALL CHECKS PASSED');
  process.exit(0);
})().catch((e) => {
  console.log(`FAILED: ${e.stack || e}`);
  process.exit(1);
});
