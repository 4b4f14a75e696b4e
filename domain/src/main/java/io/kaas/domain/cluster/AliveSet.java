package io.kaas.domain.cluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Which brokers may lead, and what each registered broker's row says. Alive means connected (a
 * heartbeat within the timeout), healthy and not draining: a broker's own tick is trusted, Kubernetes
 * readiness is not consulted. The controller pins itself in, whatever its state, so a recompute
 * never unassigns the whole cluster from under it.
 */
public final class AliveSet {

    /**
     * @param rows     one per registered broker, ordered by id
     * @param eligible the brokers the balancer may place leaders on (the alive ones and the controller)
     */
    public record Decision(List<BrokerRow> rows, SortedSet<Integer> eligible) {
    }

    private AliveSet() {
    }

    /**
     * @param registered  the brokers Kubernetes lists (the headless Service's endpoints), ready or not
     * @param heartbeats  the last heartbeat of each broker that sent one
     * @param self        the controller's id
     * @param previous    the rows of the last assignment: a dead broker keeps the last time it was seen
     * @param timeoutMs   how old a heartbeat may be and still count as connected
     */
    public static Decision decide(Collection<Integer> registered, Map<Integer, Heartbeat> heartbeats, int self,
                                  Collection<BrokerRow> previous, long nowMs, long timeoutMs) {
        SortedSet<Integer> ids = new TreeSet<>(registered);
        heartbeats.values().forEach(beat -> {
            if (nowMs - beat.receivedMs() <= timeoutMs) {
                ids.add(beat.brokerId()); // beating before its endpoint is listed; a stale beat registers no one
            }
        });
        ids.add(self);
        List<BrokerRow> rows = new ArrayList<>(ids.size());
        SortedSet<Integer> eligible = new TreeSet<>();
        for (int id : ids) {
            Heartbeat beat = heartbeats.get(id);
            boolean connected = beat != null && nowMs - beat.receivedMs() <= timeoutMs;
            BrokerHealth health;
            if (connected && beat.draining()) {
                health = BrokerHealth.DRAINING;
            } else if (connected && beat.healthy() || id == self) {
                health = BrokerHealth.ALIVE;
            } else {
                health = BrokerHealth.DEAD;
            }
            if (health == BrokerHealth.ALIVE || id == self) {
                eligible.add(id);
            }
            long lastSeen = health == BrokerHealth.ALIVE ? nowMs : lastSeen(previous, id);
            rows.add(new BrokerRow(id, health, lastSeen));
        }
        return new Decision(rows, eligible);
    }

    private static long lastSeen(Collection<BrokerRow> previous, int id) {
        for (BrokerRow row : previous) {
            if (row.id() == id) {
                return row.lastSeenMs();
            }
        }
        return 0L;
    }
}
