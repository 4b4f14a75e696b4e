/**
 * Reads for consumers: Fetch with its purgatory of parked long polls, and ListOffsets.
 */
package io.kaas.application.fetch;
