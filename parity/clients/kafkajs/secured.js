// KafkaJS over SASL_SSL listeners: TLS checked against the parity CA, SASL with SCRAM or OAUTHBEARER, then
// CreateTopics, a producer, a consumer group whose commits are read back, a topic outside the principal's
// ACLs refused, and a refused login. The counterpart of parity/clients/confluent_kafka_secured.py; the
// listeners and credentials come from the environment as parity/security/setup.sh's scenario.env names them.
// Prints one line per check and "OUTCOME:" lines to compare with Apache's; exits non-zero on the first failure.
//     node secured.js UNIQUE-SUFFIX MECHANISM...   (SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER; for the last
//                                                  OAUTH_TOKEN and OAUTH_EXPIRED_TOKEN)
const fs = require('fs');
const { Kafka, logLevel } = require('kafkajs');
const { TIMEOUT_MS, check, outcome } = require('./checks');

const [suffix, ...mechanisms] = process.argv.slice(2);
const PREFIX = `parity-secured-${suffix}`;

function client(mechanism, sasl) {
  return new Kafka({
    clientId: `parity-kafkajs-secured-${suffix}`,
    brokers: [process.env[`SASL_SSL_${mechanism.replace(/-/g, '_')}_BOOTSTRAP`]],
    ssl: { ca: [fs.readFileSync(process.env.SSL_CA_PEM, 'utf8')] },
    sasl,
    retry: { retries: 2 },
    logLevel: logLevel.NOTHING,
  });
}

function scram(mechanism, password) {
  return client(mechanism, { mechanism: mechanism.toLowerCase(), username: process.env.SASL_USERNAME, password });
}

function oauthbearer(token) {
  return client('OAUTHBEARER', { mechanism: 'oauthbearer', oauthBearerProvider: async () => ({ value: token }) });
}

async function roundTrip(kafka, what) {
  const admin = kafka.admin();
  await admin.connect();
  const topic = `${PREFIX}-kafkajs-${what}`;
  check(await admin.createTopics({ topics: [{ topic, numPartitions: 2 }], waitForLeaders: true }),
    `${what}: created ${topic}`);

  const producer = kafka.producer();
  await producer.connect();
  const messages = Array.from({ length: 100 }, (_, i) => ({ key: `key-${i}`, value: `${what}-value-${i}` }));
  const acks = await producer.send({ topic, acks: -1, messages });
  check(acks.every((a) => a.errorCode === 0), `${what}: 100 records acknowledged`);
  await producer.disconnect();

  const groupId = `${PREFIX}-kafkajs-${what}-group`;
  const consumer = kafka.consumer({ groupId, sessionTimeout: 10000, heartbeatInterval: 500 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const received = [];
  await consumer.run({ eachMessage: async ({ message }) => { received.push(message); } });
  const deadline = Date.now() + TIMEOUT_MS;
  while (received.length < 100 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  await consumer.disconnect(); // commits what it read
  const values = received.map((m) => m.value.toString()).sort();
  check(JSON.stringify(values) === JSON.stringify(messages.map((m) => m.value).sort())
    && received.every((m) => m.key.toString().replace('key', `${what}-value`) === m.value.toString()),
  `${what}: the group read the 100 records back, keys and values intact (${received.length} read)`);
  const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
  const sum = committed.partitions.reduce((total, p) => total + Math.max(Number(p.offset), 0), 0);
  check(sum === 100, `${what}: committed offsets add up to 100 (${sum})`);

  const outside = `parity-unsecured-${suffix}-kafkajs-${what}`;
  const refused = await admin.createTopics({ topics: [{ topic: outside }] }).then(() => null, (e) => e);
  check(refused !== null, `${what}: creating a topic outside the principal's ACLs is refused (${refused})`);
  outcome(`${what}: create a topic outside the ACLs`, (refused.errors || [refused]).map((e) => e.type).join(' '));
  await admin.disconnect();
}

async function refusedLogin(kafka, what) {
  const admin = kafka.admin();
  const started = Date.now();
  const error = await admin.connect().then(() => admin.listTopics()).then(() => null, (e) => e);
  check(error !== null, `${what}: nothing is served, the client fails in ${(Date.now() - started) / 1000} s (${error})`);
  if (what.startsWith('OAUTHBEARER')) {
    // KafkaJS 2.2.4 takes the broker's error challenge ({"status":"invalid_token"}) for success and sends its next
    // request instead of RFC 7628's %x01: the broker closes the connection, on Apache as on kaas
    return;
  }
  check(error.name === 'KafkaJSSASLAuthenticationError', `${what}: the error is an authentication error`);
  // KafkaJS's message ends with the broker's error message after its own "...authentication failed: "
  outcome(`${what}: the broker's error message`, error.message.replace(/^.*authentication failed: /i, ''));
}

(async () => {
  for (const mechanism of mechanisms) {
    if (mechanism === 'OAUTHBEARER') {
      await roundTrip(oauthbearer(process.env.OAUTH_TOKEN), 'oauthbearer');
      await refusedLogin(oauthbearer(process.env.OAUTH_EXPIRED_TOKEN), 'OAUTHBEARER with an expired token');
    } else {
      await roundTrip(scram(mechanism, process.env.SASL_PASSWORD), mechanism.toLowerCase());
      await refusedLogin(scram(mechanism, `${process.env.SASL_PASSWORD}-wrong`), `${mechanism} with a wrong password`);
    }
  }
  console.log('ALL CHECKS PASSED');
  process.exit(0);
})().catch((e) => {
  console.log(`FAILED: ${e.stack}`);
  process.exit(1);
});
