package dev.arbor.operations;

import java.util.List;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * One page of a longer list.
 *
 * @param items the page's items, in the list's order
 * @param nextCursor what resumes the list after this page; {@code null} on the last page
 * @param <T> the items' type
 */
public record Page<T>(List<T> items, @Nullable String nextCursor) {

	public Page {
		items = List.copyOf(items);
	}

	/**
	 * The first {@code limit} items of what follows the cursor.
	 *
	 * @param rest the items after the cursor
	 * @param cursorOf the cursor that resumes after an item
	 */
	static <T> Page<T> of(List<T> rest, int limit, Function<T, String> cursorOf) {
		if (rest.size() <= limit) {
			return new Page<>(rest, null);
		}
		List<T> items = rest.subList(0, limit);
		return new Page<>(items, cursorOf.apply(items.get(limit - 1)));
	}

}
