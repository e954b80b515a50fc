package dev.arbor.operations;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.arbor.storage.SessionInfo;
import dev.arbor.storage.SessionStore;
import org.jspecify.annotations.Nullable;

/**
 * The store's listing sorted in each order asked for, kept while the store hands out the same listing
 * ({@link SessionStore#list}), so that a page costs a search for the cursor and the page itself rather than a sort of
 * every session (docs/API.md#sessions). Thread-safe: each order's sort is replaced whole.
 */
final class SortedSessions {

	private final Map<SessionOrder, Sorted> sorted = new ConcurrentHashMap<>();

	/** The listing in the order; sorted once for each listing the store hands out. */
	Sorted of(List<SessionInfo> listing, SessionOrder order) {
		Sorted cached = this.sorted.get(order);
		if (cached != null && cached.listing == listing) {
			return cached;
		}
		SessionOrder.Placed[] placed = listing.stream().map(order::place).toArray(SessionOrder.Placed[]::new);
		Arrays.sort(placed, order.comparator());
		Sorted fresh = new Sorted(listing, placed);
		this.sorted.put(order, fresh);
		return fresh;
	}

	/** One listing in one order. */
	static final class Sorted {

		private final List<SessionInfo> listing;

		private final SessionOrder.Placed[] placed;

		private Sorted(List<SessionInfo> listing, SessionOrder.Placed[] placed) {
			this.listing = listing;
			this.placed = placed;
		}

		int size() {
			return this.placed.length;
		}

		SessionOrder.Placed get(int index) {
			return this.placed[index];
		}

		/**
		 * Where the sessions after the cursor begin: the first that the cursor precedes, found by halving, as every
		 * session the cursor precedes comes after every one it does not.
		 */
		int start(@Nullable SessionCursor after) {
			if (after == null) {
				return 0;
			}
			int low = 0;
			int high = this.placed.length;
			while (low < high) {
				int middle = (low + high) >>> 1;
				SessionOrder.Placed each = this.placed[middle];
				if (after.precedes(each.key(), each.info().id())) {
					high = middle;
				}
				else {
					low = middle + 1;
				}
			}
			return low;
		}

	}

}
