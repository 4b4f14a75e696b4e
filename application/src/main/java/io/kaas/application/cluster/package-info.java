/**
 * What a client learns about the cluster: brokers, controller, leaders and their epochs (Metadata, FindCoordinator, DescribeCluster, leader elections); standalone today.
 */
package io.kaas.application.cluster;
