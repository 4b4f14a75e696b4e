"""The parity scenarios' restart hook for the Python clients: $RESTART_BROKER is a command (run.sh
--restart / --peer-restart) that restarts the broker under test, keeping its data, and returns once it
answers again. It takes one argument: graceful (SIGTERM, the broker shuts down cleanly) or kill (SIGKILL)."""
import os
import shlex
import subprocess
import sys
import time


def restart_broker(mode):
    """Restarts the broker and waits for it; exits the program with FAILED if the hook fails."""
    started, hook = time.time(), restart_broker_in_background(mode)
    finished_restart(hook, mode)
    print(f"broker restarted ({mode}) in {time.time() - started:.1f}s", flush=True)


def restart_broker_in_background(mode):
    """Starts the restart and returns the running hook (poll() it; returncode 0 once the broker answers)."""
    return subprocess.Popen(f"{os.environ['RESTART_BROKER']} {shlex.quote(mode)}", shell=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def finished_restart(hook, mode):
    """Waits for a restart begun in the background; exits the program with FAILED if the hook failed."""
    output = hook.communicate()[0]
    if hook.returncode != 0:
        print(f"FAILED: restarting the broker ({mode}): {output.strip()}", flush=True)
        sys.exit(1)
