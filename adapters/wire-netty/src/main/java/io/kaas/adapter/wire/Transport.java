package io.kaas.adapter.wire;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;

/**
 * What drives the listeners' sockets: Netty's native epoll where it loads (Linux), Java NIO otherwise. Epoll's event
 * loops cost less per request (edge-triggered, eventfd wake-ups, no selector key sets: 16–29 % less broker CPU
 * per 1 KiB produced record, docs/perf/2026-12-03-epoll.md), and there a TLS connection can set {@code SO_RCVLOWAT} and
 * be woken once for most of a large request instead of once per TLS record
 * ({@link io.kaas.adapter.wire.codec.ReceiveLowWater}). A Fetch's segment-file regions reach either by sendfile.
 */
public enum Transport {
    NIO,
    EPOLL;

    /** Epoll when its native library loads, NIO otherwise. */
    public static Transport available() {
        return Epoll.isAvailable() ? EPOLL : NIO;
    }

    public IoHandlerFactory ioHandlers() {
        return this == EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    }

    public Class<? extends ServerChannel> serverChannel() {
        return this == EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }
}
