/**
 * Live events and hooks (docs/API.md#events-server-sent-events and docs/API.md#hooks-and-webhooks): the
 * {@link dev.arbor.events.EventBus} every event goes through, the store's changes as events
 * ({@link dev.arbor.events.StoreEvents}), the Server-Sent Events streams with replay and heartbeats
 * ({@link dev.arbor.events.EventStreams}), and the hooks that answer the {@code session_before_*} events, in-process
 * ({@link dev.arbor.events.SessionHook}) or as {@link dev.arbor.events.Webhook}s.
 */
@NullMarked
package dev.arbor.events;

import org.jspecify.annotations.NullMarked;
