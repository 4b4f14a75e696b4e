/**
 * The produce path in front of the logs: validation, KIP-890 verification, appends on each partition's append queue, acks.
 */
package io.kaas.application.produce;
