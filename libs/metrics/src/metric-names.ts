/**
 * The name of every Postbus metric, in one place: the services emit them, and the Grafana
 * dashboard and the Prometheus alert rules under deploy/ are checked against this list.
 * Every series also carries `service` (the emitting service) as a label.
 */
export const METRIC = {
  /** Histogram {method, route, status}: HTTP requests the gateway answered. */
  httpRequestDuration: 'postbus_http_request_duration_seconds',
  /** Histogram {rpc, outcome}: RPCs a service served; outcome is `ok` or the error code. */
  rpcServerDuration: 'postbus_rpc_server_duration_seconds',
  /** Histogram {rpc, outcome}: RPCs a service called; a missed deadline is `service_unavailable`. */
  rpcClientDuration: 'postbus_rpc_client_duration_seconds',
  /** Histogram {queue, event, outcome}: events a consumer handled; outcome `ok`, `retry` or `dead`. */
  eventHandlingDuration: 'postbus_event_handling_duration_seconds',
  /** Histogram {queue, event}: seconds from an event's occurrence to its first handling (outbox, broker, queue wait). */
  eventWait: 'postbus_event_wait_seconds',
  /** Counter {queue, event}: events sent to a delay queue for another attempt. */
  eventRetries: 'postbus_event_retries_total',
  /** Counter {queue, event}: events parked in `<queue>.dead`. */
  eventDeadLetters: 'postbus_event_dead_letters_total',
  /** Gauge: committed outbox rows not yet published to the broker. */
  outboxBacklog: 'postbus_outbox_backlog',
  /** Histogram: seconds between a post's scheduled time and its dispatch by the scheduler. */
  dispatchLag: 'postbus_dispatch_lag_seconds',
  /** Counter: dispatched posts announced again because no outcome came back within POSTS_REDISPATCH_AFTER_MS. */
  postsRedispatched: 'postbus_posts_redispatched_total',
  /** Histogram {platform, outcome}: platform publish steps; outcome `published`, `waiting` (still processing), `transient_error` or `failed`. */
  publishDuration: 'postbus_publish_duration_seconds',
  /** Counter {platform, outcome}: the same calls, counted. */
  publishOutcomes: 'postbus_publish_outcomes_total',
  /** Counter {platform, cause}: posts put off without counting an attempt; cause `rate_limit` (our per-profile limits), `throttle` (the platform's rate limits) or `publishing_quota` (its posts-per-window quota). */
  publishDeferrals: 'postbus_publish_deferrals_total',
  /** Counter {outcome}: webhook delivery attempts; outcome `delivered` (2xx) or `failed` (retried while the policy allows). */
  webhookDeliveries: 'postbus_webhook_deliveries_total',
  /** Histogram {outcome}: how long a webhook delivery (one HTTP POST to a subscriber) took. */
  webhookDeliveryDuration: 'postbus_webhook_delivery_duration_seconds',
  /** Counter {operation}: media whose stored object was missing although its row named it; operation `serve` (answered 410 media_gone) or `dedupe` (stored again from the upload). */
  mediaObjectsMissing: 'postbus_media_objects_missing_total',
  /** Gauge {dependency}: 1 when the database or the broker answers this service, else 0. */
  dependencyUp: 'postbus_dependency_up',
} as const;

export type MetricName = (typeof METRIC)[keyof typeof METRIC];
