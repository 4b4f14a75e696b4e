package io.kaas.adapter.wire;

import io.kaas.application.port.in.ConnectionAdmission;
import io.kaas.application.port.in.ConnectionAdmission.Attempt;
import io.kaas.application.port.in.ConnectionAdmission.Decision;
import io.kaas.application.port.in.TrafficMetrics;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One listener's accept path under the connection limits: sits on the server channel, before Netty hands an accepted
 * connection to an event loop, and runs on the accepting loop only. A connection is handed on once
 * {@link ConnectionAdmission} accepts it; until then it is not registered, so nothing of it is read. One that must
 * wait (a creation rate's delay, no free slot) is held with those accepted after it, and the listener stops accepting
 * (its server channel stops reading, so new connections queue in the kernel's backlog) until it may go on: after
 * the delay, or when a slot may have freed. Refused connections are closed at once, throttled ones after their
 * throttle, both unread.
 */
final class ConnectionGate extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionGate.class);

    private final String listener;
    private final ConnectionAdmission admission;
    private final TrafficMetrics metrics;
    /** Accepted connections not yet decided, in accept order; the head's attempt is under way. */
    private final Queue<Held> held = new ArrayDeque<>();
    /** Connections over their IP's creation rate, waiting out their throttle before being closed. */
    private final Set<Channel> throttled = new HashSet<>();
    private ChannelHandlerContext ctx;
    private ScheduledFuture<?> delay;
    /** The held connection the listener last stopped accepting for, so each is counted once. */
    private Held pausedFor;
    /** Read off the loop by the slot watcher: whether a freed slot should wake this gate. */
    private volatile boolean waiting;

    private record Held(Channel channel, Attempt attempt) {
    }

    ConnectionGate(String listener, ConnectionAdmission admission, TrafficMetrics metrics) {
        this.listener = listener;
        this.admission = admission;
        this.metrics = metrics;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        admission.whenSlotsMayHaveFreed(() -> {
            if (waiting) {
                ctx.executor().execute(this::drain);
            }
        });
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Channel child = (Channel) msg;
        InetSocketAddress remote = (InetSocketAddress) child.remoteAddress();
        if (remote == null || remote.getAddress() == null) {
            child.unsafe().closeForcibly(); // gone before it could be looked at
            return;
        }
        held.add(new Held(child, admission.attempt(listener, remote.getAddress().getHostAddress())));
        drain();
    }

    /** Decides the held connections in order, up to the first that must wait. */
    private void drain() {
        if (delay != null) {
            return;
        }
        while (!held.isEmpty()) {
            Held next = held.peek();
            Decision decision = next.attempt().proceed();
            switch (decision.verdict()) {
                case ACCEPT -> {
                    held.remove();
                    next.channel().closeFuture().addListener(closed -> next.attempt().closed());
                    ctx.fireChannelRead(next.channel());
                }
                case DELAY -> {
                    pause(decision, next);
                    delay = ctx.executor().schedule(() -> {
                        delay = null;
                        drain();
                    }, decision.ms(), TimeUnit.MILLISECONDS);
                    return;
                }
                case WAIT -> {
                    pause(decision, next);
                    return;
                }
                case THROTTLE -> {
                    held.remove();
                    metrics.connectionLimited(listener, decision.limit(), true);
                    LOG.debug("connection from {} is over its IP's connection creation rate: closing it in {} ms",
                            next.channel().remoteAddress(), decision.ms());
                    throttled.add(next.channel());
                    ctx.executor().schedule(() -> {
                        if (throttled.remove(next.channel())) {
                            next.channel().unsafe().closeForcibly();
                        }
                    }, decision.ms(), TimeUnit.MILLISECONDS);
                }
                case REFUSE -> {
                    held.remove();
                    metrics.connectionLimited(listener, decision.limit(), true);
                    LOG.info("Rejected connection from {}, address already has the configured maximum of {}"
                            + " connections.", next.channel().remoteAddress(), decision.bound());
                    next.channel().unsafe().closeForcibly();
                }
            }
        }
        waiting = false;
        pausedFor = null;
        ctx.channel().config().setAutoRead(true);
    }

    /** Stops accepting until the held connection may go on; counted once per connection held back. */
    private void pause(Decision decision, Held head) {
        if (pausedFor != head) {
            pausedFor = head;
            metrics.connectionLimited(listener, decision.limit(), false);
            LOG.debug("listener {} stops accepting: {} ({}) reached, {} connection(s) held", listener,
                    decision.limit(), decision.bound(), held.size());
        }
        waiting = true;
        ctx.channel().config().setAutoRead(false);
    }

    /** The listener is closing: what it holds is closed too. */
    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        waiting = false;
        if (delay != null) {
            delay.cancel(false);
        }
        held.forEach(h -> h.channel().unsafe().closeForcibly());
        held.clear();
        throttled.forEach(c -> c.unsafe().closeForcibly());
        throttled.clear();
        ctx.fireChannelInactive();
    }
}
