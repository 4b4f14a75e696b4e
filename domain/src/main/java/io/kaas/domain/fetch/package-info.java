/**
 * Incremental fetch sessions (KIP-227): which partitions a consumer's session holds, what each was last
 * answered with, the session epochs, and the bounded cache with Apache's eviction order.
 */
package io.kaas.domain.fetch;
