package io.kaas.domain.cluster;

/**
 * A partition's leader in an assignment, and its leader epoch: the epoch rises each time the
 * partition moves, the new leader names its segments with it (so a deposed leader's late writes land
 * in a file nobody reads), and Metadata reports it on every broker alike.
 */
public record Leader(int broker, int epoch) {
}
