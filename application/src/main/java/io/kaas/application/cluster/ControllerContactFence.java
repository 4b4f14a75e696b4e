package io.kaas.application.cluster;

import io.kaas.application.controller.ControllerLease;
import java.util.function.LongPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The self-fence: a broker cut off from the controller stops acknowledging writes within the
 * heartbeat timeout, because that is when the controller counts it dead and hands its partitions to
 * others. Past the timeout without an acknowledged beat, Produce is refused. The controller itself
 * is open while it holds the Lease, and after that while every broker it counts alive still beats it
 * (with the API server gone nobody can renew or take the Lease, and the cluster keeps serving).
 *
 * <p>One exception keeps a controller's death from stopping every broker: when this broker still
 * reads the Lease and sees it unrenewed for longer than a holder acts on it (four fifths of its
 * duration), no controller can be moving partitions until a new one wins the Lease - and a win
 * changes the Lease, so the broker is fenced again until the new controller acknowledges a beat.
 */
public final class ControllerContactFence implements WriteFence {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerContactFence.class);

    private final ControllerLease lease;
    private final LongPredicate acknowledgedWithin;
    private final LongPredicate followedWithin;
    private final long timeoutMs;
    private volatile boolean wasFenced;

    /**
     * @param acknowledgedWithin whether the controller acknowledged a beat within the given milliseconds
     * @param followedWithin     whether every broker this one (as controller) counts alive beat it within them
     * @param timeoutMs          the heartbeat timeout after which the controller counts a silent broker dead
     */
    public ControllerContactFence(ControllerLease lease, LongPredicate acknowledgedWithin, LongPredicate followedWithin,
                                  long timeoutMs) {
        this.lease = lease;
        this.acknowledgedWithin = acknowledgedWithin;
        this.followedWithin = followedWithin;
        this.timeoutMs = timeoutMs;
    }

    @Override
    public boolean fenced() {
        boolean fenced = !lease.holds() && !acknowledgedWithin.test(timeoutMs) && !followedWithin.test(timeoutMs)
                && !lease.seenAbandoned(timeoutMs);
        if (fenced != wasFenced) {
            wasFenced = fenced;
            LOG.warn(fenced ? "no heartbeat acknowledged by the controller for {} ms: refusing writes until one is"
                    : "the controller acknowledges heartbeats again (or none is acting): accepting writes", timeoutMs);
        }
        return fenced;
    }
}
