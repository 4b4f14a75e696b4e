"""The two kinds of line every librdkafka parity client prints: a check that must hold, and an answer the
broker chooses, which the scenario compares with Apache's."""
import sys


def check(condition, what):
    """Prints "ok: WHAT", or "FAILED: WHAT" and exits non-zero."""
    if not condition:
        print("FAILED: " + what, flush=True)
        sys.exit(1)
    print("ok: " + what, flush=True)


def outcome(what, answer):
    """Prints "OUTCOME: WHAT: ANSWER" for the scenario to compare, and returns the answer."""
    print(f"OUTCOME: {what}: {answer}", flush=True)
    return answer
