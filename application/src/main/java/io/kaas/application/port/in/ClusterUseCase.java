package io.kaas.application.port.in;

import java.util.List;

/** The cluster as clients see it: its id, its brokers, and who leads or coordinates what. */
public interface ClusterUseCase {

    String clusterId();

    Broker self();

    List<Broker> brokers();

    int controllerId();

    /** The broker leading a partition. */
    int leaderOf(String topic, int partition);

    /** The broker coordinating a consumer group. */
    Broker groupCoordinator(String groupId);

    record Broker(int id, String host, int port) {
    }
}
