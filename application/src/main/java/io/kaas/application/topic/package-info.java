/**
 * Topics and their logs: create, delete, partitions, configs, DeleteRecords, log dirs, and the per-partition background sweeps (retention, producer-id expiry).
 */
package io.kaas.application.topic;
