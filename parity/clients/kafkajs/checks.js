// The lines every KafkaJS parity client prints: a check that must hold, and an answer the broker chooses,
// which the scenario compares with Apache's; and a wait for a condition that fails as a check would.
const TIMEOUT_MS = 30000;

function check(condition, what) {
  if (!condition) {
    console.log(`FAILED: ${what}`);
    process.exit(1);
  }
  console.log(`ok: ${what}`);
}

function outcome(what, answer) {
  console.log(`OUTCOME: ${what}: ${answer}`);
  return answer;
}

async function until(condition, what) {
  const deadline = Date.now() + TIMEOUT_MS;
  while (!condition()) {
    if (Date.now() > deadline) check(false, what);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

module.exports = { TIMEOUT_MS, check, outcome, until };
