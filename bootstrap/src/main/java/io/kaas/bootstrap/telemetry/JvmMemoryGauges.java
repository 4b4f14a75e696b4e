package io.kaas.bootstrap.telemetry;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.Meter;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;

/**
 * Off-heap memory an operator watches on a broker: the JVM's buffer pools (direct and mapped) and
 * the Netty allocator the wire reads requests into and writes responses from.
 */
final class JvmMemoryGauges {
    private static final AttributeKey<String> POOL = AttributeKey.stringKey("jvm.buffer.pool.name");
    private static final AttributeKey<String> KIND = AttributeKey.stringKey("kind");

    private JvmMemoryGauges() {
    }

    static void register(Meter meter) {
        meter.upDownCounterBuilder("jvm.buffer.memory.used").setUnit("By")
                .setDescription("Memory the JVM's buffer pools use, by pool (direct, mapped)")
                .buildWithCallback(m -> ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)
                        .forEach(pool -> m.record(pool.getMemoryUsed(), Attributes.of(POOL, pool.getName()))));
        if (ByteBufAllocator.DEFAULT instanceof ByteBufAllocatorMetricProvider allocator) {
            meter.upDownCounterBuilder("kaas.netty.allocator.memory.used").setUnit("By")
                    .setDescription("Memory Netty's default allocator holds, by kind (direct, heap)")
                    .buildWithCallback(m -> {
                        m.record(allocator.metric().usedDirectMemory(), Attributes.of(KIND, "direct"));
                        m.record(allocator.metric().usedHeapMemory(), Attributes.of(KIND, "heap"));
                    });
        }
    }
}
