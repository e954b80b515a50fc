package dev.arbor.session;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * Read-only list views over the tree's entry array: a path or the file order, without copying
 * 100,000 references per request. A view never changes, even after the session's lock is released: positions below
 * the size it was made with are never written again (appends go after them, into a copy when the array grows), and
 * entries never change.
 */
public final class EntryLists {

	private EntryLists() {
	}

	/**
	 * The list itself when it is one of these views, which nothing can change (entries never change, and a view's
	 * positions are its own), else an unmodifiable copy: a navigation's plan keeps the abandoned entries, 130,000 on
	 * average at 400,000, and copying them was a third of a navigation's time.
	 */
	public static List<EntryLine> immutable(List<EntryLine> entries) {
		return (entries instanceof View) ? entries : List.copyOf(entries);
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
