package io.kaas.adapter.k8s;

import io.kaas.application.port.out.BrokerRegistry.RegisteredBroker;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The registered brokers, kept per EndpointSlice (the book's "Broker fencing" rules). A slice's update replaces only
 * the brokers that slice listed, so an ordinal absent from its slice is deregistered while the other slices of the
 * Service keep theirs. This broker is pinned: slice data never adds, changes or removes it.
 *
 * <p>When several slices list one ordinal (a dual-stack Service has a slice per address family), a ready entry wins
 * over a not-ready one, then the slice whose name sorts first. Not thread-safe: the registry's watch thread owns it.
 */
final class BrokersBySlice {
    private final RegisteredBroker self;
    private final Map<String, List<RegisteredBroker>> slices = new TreeMap<>();
    private List<RegisteredBroker> snapshot;

    BrokersBySlice(RegisteredBroker self) {
        this.self = self;
        this.snapshot = List.of(self);
    }

    /** Every registered broker, self included, ordered by id; immutable. */
    List<RegisteredBroker> snapshot() {
        return snapshot;
    }

    /** Records what {@code slice} lists now. @return whether the snapshot changed */
    boolean put(String slice, List<RegisteredBroker> brokers) {
        slices.put(slice, List.copyOf(brokers));
        return recompute();
    }

    /** Forgets a deleted slice and its brokers. @return whether the snapshot changed */
    boolean remove(String slice) {
        slices.remove(slice);
        return recompute();
    }

    /** Replaces every slice with a full listing: what it does not name is gone. @return whether the snapshot changed */
    boolean replaceAll(Map<String, List<RegisteredBroker>> listing) {
        slices.clear();
        listing.forEach((slice, brokers) -> slices.put(slice, List.copyOf(brokers)));
        return recompute();
    }

    private boolean recompute() {
        Map<Integer, RegisteredBroker> byId = new TreeMap<>();
        slices.values().forEach(brokers -> brokers.forEach(broker -> byId.merge(broker.id(), broker,
                (kept, other) -> !kept.ready() && other.ready() ? other : kept)));
        byId.put(self.id(), self);
        List<RegisteredBroker> next = List.copyOf(byId.values());
        boolean changed = !next.equals(snapshot);
        snapshot = next;
        return changed;
    }
}
