package dev.arbor.session;

import java.util.function.IntFunction;

/**
 * Entry id → position in file order, open addressing over an {@code int[]}: about 8 bytes an entry
 * where a {@code HashMap<String, Integer>} costs about 50. Later puts of the same id win (duplicate
 * ids: the later entry wins for lookups, SESSION-TREE.md §3). Not thread-safe.
 */
final class IdIndex {

	private static final int EMPTY = 0;

	private final IntFunction<String> idAt;

	private int[] slots;

	private int size;

	/** @param idAt the id of the entry at a position; keys are never stored twice */
	IdIndex(IntFunction<String> idAt, int expected) {
		this.idAt = idAt;
		this.slots = new int[tableSize(expected)];
	}

	/** Position of the entry with this id, or -1. */
	int get(String id) {
		int mask = this.slots.length - 1;
		for (int i = spread(id.hashCode()) & mask;; i = (i + 1) & mask) {
			int slot = this.slots[i];
			if (slot == EMPTY) {
				return -1;
			}
			if (this.idAt.apply(slot - 1).equals(id)) {
				return slot - 1;
			}
		}
	}

	/** Maps the entry's id to this position, replacing an earlier entry with the same id. */
	void put(String id, int position) {
		if ((this.size + 1) * 2 > this.slots.length) {
			rehash(this.slots.length * 2);
		}
		int mask = this.slots.length - 1;
		for (int i = spread(id.hashCode()) & mask;; i = (i + 1) & mask) {
			int slot = this.slots[i];
			if (slot == EMPTY) {
				this.slots[i] = position + 1;
				this.size++;
				return;
			}
			if (this.idAt.apply(slot - 1).equals(id)) {
				this.slots[i] = position + 1;
				return;
			}
		}
	}

	int size() {
		return this.size;
	}

	private void rehash(int newLength) {
		int[] old = this.slots;
		this.slots = new int[newLength];
		int mask = newLength - 1;
		for (int slot : old) {
			if (slot != EMPTY) {
				int i = spread(this.idAt.apply(slot - 1).hashCode()) & mask;
				while (this.slots[i] != EMPTY) {
					i = (i + 1) & mask;
				}
				this.slots[i] = slot;
			}
		}
	}

	private static int tableSize(int expected) {
		int size = 16;
		while (size < expected * 2) {
			size <<= 1;
		}
		return size;
	}

	private static int spread(int hash) {
		return hash ^ (hash >>> 16);
	}

	@Override
	public String toString() {
		return "IdIndex[size=" + this.size + ", table=" + this.slots.length + "]";
	}

}
