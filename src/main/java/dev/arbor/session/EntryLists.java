package dev.arbor.session;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * Read-only list views over the tree's entry array: a path or the file order, without copying
 * 100,000 references per request. A view is valid while its caller holds the session's read lock;
 * the array only grows, so a view never sees an entry change.
 */
final class EntryLists {

	private EntryLists() {
	}

	/** The first {@code size} entries. */
	static List<EntryLine> view(EntryLine[] entries, int size) {
		return new View(size) {
			@Override
			public EntryLine get(int index) {
				return entries[checked(index)];
			}
		};
	}

	/** The entries at the given positions, in that order. */
	static List<EntryLine> view(EntryLine[] entries, int[] positions) {
		return new View(positions.length) {
			@Override
			public EntryLine get(int index) {
				return entries[positions[checked(index)]];
			}
		};
	}

	private abstract static class View extends AbstractList<EntryLine> implements RandomAccess {

		private final int size;

		View(int size) {
			this.size = size;
		}

		@Override
		public int size() {
			return this.size;
		}

		/** Without an iterator: {@code List.copyOf} of a path of 100,000 entries starts here. */
		@Override
		public Object[] toArray() {
			Object[] array = new Object[this.size];
			for (int i = 0; i < this.size; i++) {
				array[i] = get(i);
			}
			return array;
		}

		int checked(int index) {
			if (index < 0 || index >= this.size) {
				throw new IndexOutOfBoundsException("Index " + index + " out of bounds for length " + this.size);
			}
			return index;
		}

	}

}
