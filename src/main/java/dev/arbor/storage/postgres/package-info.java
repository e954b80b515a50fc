/**
 * The PostgreSQL store, for several instances of Arbor over one database ({@code arbor.storage.type=postgres}):
 * sessions as rows (the header, the title slot, the leaf, and each entry's line exactly as stored, in file order),
 * every change in one transaction under the session's advisory lock, each instance's cache of trees brought up to
 * date by the session's position before it is used, navigation leases and aborts across instances, the
 * {@code LISTEN} connection that tells an instance what the others did, and the event bus over the same database
 * ({@link dev.arbor.storage.postgres.PostgresEventBus}, the {@code arbor_event} table), which every instance reads so
 * that its subscribers get every instance's events. The schema is Flyway's ({@code db/migration}).
 */
@NullMarked
package dev.arbor.storage.postgres;

import org.jspecify.annotations.NullMarked;
