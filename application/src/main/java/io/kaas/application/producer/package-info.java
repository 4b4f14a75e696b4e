/**
 * Producer ids for idempotent producers (persisted blocks) and the producer state partitions report (DescribeProducers, fencing).
 */
package io.kaas.application.producer;
